// The reader's language, theme and place; search box, snippet tabs, copy buttons, the page's
// contents and the release view of an option page. No framework and no network: the search
// index and texts are `window.CANN_SEARCH` / `CANN_TEXT` (search-index.js, a script tag), so
// the site works from file:// as well as from any static server.
// The address says what the reader sees (`?lang=`, `?q=`, `?release=`), and every internal
// link carries `?lang=`, so a copied link opens as the reader saw it.
(function () {
  "use strict";
  var LANG_KEY = "cann-docs-lang", THEME_KEY = "cann-docs-theme", TAB_KEY = "cann-docs-tab";
  var html = document.documentElement;
  var root = document.body.getAttribute("data-root") || "";
  var TEXT = window.CANN_TEXT || { en: {}, zh: {} };

  function lang() { return html.classList.contains("lang-zh") ? "zh" : "en"; }
  function text(k) { return (TEXT[lang()] || {})[k] || ""; }
  function store(k, v) { try { localStorage.setItem(k, v); } catch (e) { /* storage may be off */ } }
  function stored(k) { try { return localStorage.getItem(k); } catch (e) { return null; } }

  function params() {
    try { return new URLSearchParams(window.location.search); } catch (e) { return null; }
  }

  function setParam(name, value) {
    var p = params();
    if (!p || !window.history || !window.history.replaceState) { return; }
    if (value) { p.set(name, value); } else { p.delete(name); }
    var s = p.toString();
    try {
      window.history.replaceState(null, "", window.location.pathname + (s ? "?" + s : "") + window.location.hash);
    } catch (e) { /* some file:// contexts refuse; the page still works */ }
  }

  // An internal page link with the reader's language (and what else it already asks).
  function withLang(href) {
    if (!href || /^[a-z][a-z0-9+.-]*:/i.test(href) || href.charAt(0) === "#") { return href; }
    var hash = "", i = href.indexOf("#");
    if (i >= 0) { hash = href.slice(i); href = href.slice(0, i); }
    var query = "", j = href.indexOf("?");
    if (j >= 0) { query = href.slice(j + 1); href = href.slice(0, j); }
    if (!/\.html$/.test(href)) { return href + (query ? "?" + query : "") + hash; }
    var p = new URLSearchParams(query);
    p.set("lang", lang());
    return href + "?" + p.toString() + hash;
  }

  function carryLang(scope) {
    Array.prototype.forEach.call((scope || document).querySelectorAll("a[href]"), function (a) {
      a.setAttribute("href", withLang(a.getAttribute("href")));
    });
  }

  var box = document.getElementById("search");
  var list = document.getElementById("search-results");

  function words() {
    if (box) {
      box.placeholder = text("placeholder");
      box.setAttribute("aria-label", text("searchLabel"));
    }
    var theme = document.getElementById("theme-toggle");
    if (theme) { theme.title = text("theme"); theme.setAttribute("aria-label", text("theme")); }
    Array.prototype.forEach.call(document.querySelectorAll("a.anchor"), function (a) {
      a.setAttribute("aria-label", text("anchor"));
    });
    var newest = document.querySelector("#release-pick option[data-newest]");
    if (newest) { newest.textContent = text("newest"); }
  }

  function setLang(l) {
    html.classList.remove("lang-en", "lang-zh");
    html.classList.add("lang-" + l);
    html.lang = l;
    store(LANG_KEY, l);
    setParam("lang", l);
    carryLang();
    words();
    render();
    document.dispatchEvent(new CustomEvent("cann-lang"));
  }

  var toggle = document.getElementById("lang-toggle");
  if (toggle) {
    toggle.addEventListener("click", function () { setLang(lang() === "zh" ? "en" : "zh"); });
  }

  // ---- theme: the system's unless the reader chose ----
  var themeButton = document.getElementById("theme-toggle");
  if (themeButton) {
    themeButton.addEventListener("click", function () {
      var dark = html.classList.contains("theme-dark") ||
        (!html.classList.contains("theme-light") && window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches);
      html.classList.remove("theme-dark", "theme-light");
      html.classList.add(dark ? "theme-light" : "theme-dark");
      store(THEME_KEY, dark ? "light" : "dark");
    });
  }

  // ---- search ----
  var engine = window.CANN_SEARCH_ENGINE;

  function el(tag, cls, t) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (t !== undefined) { e.textContent = t; }
    return e;
  }

  function render() {
    if (!box || !list || !engine) { return; }
    var q = box.value.trim();
    list.textContent = "";
    if (!q) { list.hidden = true; return; }
    var hits = engine.search(q).slice(0, 20);
    if (!hits.length) { list.appendChild(el("li", "empty", text("none"))); }
    hits.forEach(function (h, i) {
      var li = el("li");
      var a = el("a", i === 0 ? "active" : "");
      a.href = withLang(root + h.item.url);
      a.setAttribute("data-name", h.item.name);
      a.appendChild(el("code", "", h.item.name));
      a.appendChild(document.createTextNode(" · " + h.item["class"]));
      if (h.by) {
        var m = el("span", "matched", text(h.by) + (h.what ? ": " : ""));
        if (h.what) { m.appendChild(el("code", "", h.what)); }
        a.appendChild(m);
      }
      a.appendChild(el("small", "", lang() === "zh" ? h.item.zh : h.item.en));
      li.appendChild(a);
      list.appendChild(li);
    });
    list.hidden = false;
  }

  if (box && list) {
    box.addEventListener("input", function () { setParam("q", box.value.trim()); render(); });
    box.addEventListener("keydown", function (ev) {
      var links = Array.prototype.slice.call(list.querySelectorAll("a"));
      var at = links.indexOf(list.querySelector("a.active"));
      if (ev.key === "Enter") {
        if (links[at < 0 ? 0 : at]) { window.location.href = links[at < 0 ? 0 : at].href; }
      } else if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
        if (!links.length) { return; }
        ev.preventDefault();
        if (at >= 0) { links[at].classList.remove("active"); }
        at = (at + (ev.key === "ArrowDown" ? 1 : links.length - 1)) % links.length;
        links[at].classList.add("active");
        links[at].scrollIntoView({ block: "nearest" });
      } else if (ev.key === "Escape") {
        box.value = "";
        setParam("q", "");
        render();
        box.blur();
      }
    });
    document.addEventListener("click", function (ev) {
      if (!list.contains(ev.target) && ev.target !== box) { list.hidden = true; }
    });
    box.addEventListener("focus", render);
    // `/` anywhere but in a field focuses the search box.
    document.addEventListener("keydown", function (ev) {
      var t = ev.target, tag = t && t.tagName;
      if (ev.key !== "/" || ev.ctrlKey || ev.metaKey || ev.altKey) { return; }
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (t && t.isContentEditable)) { return; }
      ev.preventDefault();
      box.focus();
      box.select();
    });
  }

  // ---- snippet tabs: one surface shown, the reader's choice kept across pages ----
  var tabs = document.querySelector(".tabs");
  if (tabs) {
    var buttons = Array.prototype.slice.call(tabs.querySelectorAll("button.tab"));
    var panels = Array.prototype.slice.call(document.querySelectorAll("figure.snippet[data-tab]"));
    var show = function (id, remember) {
      if (!buttons.some(function (b) { return b.getAttribute("data-tab") === id; })) { id = buttons[0].getAttribute("data-tab"); }
      buttons.forEach(function (b) {
        var on = b.getAttribute("data-tab") === id;
        b.classList.toggle("active", on);
        b.setAttribute("aria-selected", on ? "true" : "false");
      });
      panels.forEach(function (f) { f.hidden = f.getAttribute("data-tab") !== id; });
      if (remember) { store(TAB_KEY, id); }
    };
    buttons.forEach(function (b) {
      b.addEventListener("click", function () { show(b.getAttribute("data-tab"), true); });
    });
    document.body.classList.add("has-tabs");
    show(stored(TAB_KEY) || "", false);
  }

  // ---- copy buttons ----
  Array.prototype.forEach.call(document.querySelectorAll("figure.snippet"), function (fig) {
    var button = fig.querySelector("button.copy");
    var code = fig.querySelector("pre code");
    if (!button || !code) { return; }
    button.addEventListener("click", function () {
      var t = code.textContent;
      function done() {
        button.classList.add("done");
        setTimeout(function () { button.classList.remove("done"); }, 1500);
      }
      function fallback() {
        var ta = document.createElement("textarea");
        ta.value = t;
        document.body.appendChild(ta);
        ta.select();
        try { document.execCommand("copy"); done(); } catch (e) { /* nothing to do */ }
        document.body.removeChild(ta);
      }
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(t).then(done, fallback);
      } else {
        fallback();
      }
    });
  });

  // ---- an option page at one release ----
  var pick = document.getElementById("release-pick");
  if (pick) {
    var blocks = Array.prototype.slice.call(document.querySelectorAll(".at-release[data-release]"));
    var choose = function (r, write) {
      if (!blocks.some(function (b) { return b.getAttribute("data-release") === r; })) { r = ""; }
      pick.value = r;
      blocks.forEach(function (b) { b.hidden = b.getAttribute("data-release") !== r; });
      if (write) { setParam("release", r); }
    };
    pick.addEventListener("change", function () { choose(pick.value, true); });
    var pr = params();
    choose(pr ? pr.get("release") || "" : "", false);
  }

  // ---- heading anchors and the page's contents ----
  var main = document.querySelector("main");
  if (main) {
    var heads = Array.prototype.slice.call(main.querySelectorAll("h2, h3"));
    heads.forEach(function (h, i) {
      if (h.classList.contains("at-release-title")) { return; }
      if (!h.id) { h.id = "section-" + (i + 1); }
      var a = el("a", "anchor", "#");
      a.href = "#" + h.id;
      h.appendChild(a);
    });
    var h2s = heads.filter(function (h) { return h.tagName === "H2"; });
    if (h2s.length >= 2) {
      var toc = el("nav", "toc");
      toc.id = "toc";
      var title = el("strong");
      ["en", "zh"].forEach(function (l) {
        var s = el("span", l, (TEXT[l] || {}).onThisPage || "");
        s.lang = l;
        title.appendChild(s);
      });
      toc.appendChild(title);
      var ul = el("ul");
      h2s.forEach(function (h) {
        var li = el("li");
        var a = el("a");
        a.href = "#" + h.id;
        // The heading's words without its anchor mark, in both languages as the page has them.
        var copy = h.cloneNode(true);
        var mark = copy.querySelector("a.anchor");
        if (mark) { copy.removeChild(mark); }
        a.innerHTML = copy.innerHTML;
        li.appendChild(a);
        ul.appendChild(li);
      });
      toc.appendChild(ul);
      var h1 = main.querySelector("h1");
      var after = main.querySelector("#retired") || h1;
      if (after && after.parentNode === main) { main.insertBefore(toc, after.nextSibling); } else { main.insertBefore(toc, main.firstChild); }
    }
  }

  // ---- anchors land below the sticky header, whatever its height on this screen ----
  var header = document.querySelector("header.top");
  var fitHeader = function () {
    if (header) { html.style.setProperty("--header-h", header.offsetHeight + "px"); }
  };
  fitHeader();
  window.addEventListener("resize", fitHeader);

  // ---- what the address asks for ----
  var p = params();
  var l = lang();
  setParam("lang", l);
  carryLang();
  words();
  if (p) {
    var q = p.get("q");
    if (q && box) { box.value = q; render(); }
  }
  if (window.location.hash) {
    var target = document.getElementById(decodeURIComponent(window.location.hash.slice(1)));
    if (target) { target.scrollIntoView(); }
  }

  window.CANN_SITE = { lang: lang, withLang: withLang, carryLang: carryLang, text: text, setParam: setParam, params: params };
})();
