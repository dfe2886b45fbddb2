// Language switch, search, page contents, heading anchors and copy buttons. No framework
// and no network: the search index is `window.CANN_SEARCH`, defined by search-index.js
// through a script tag, so the site works from file:// as well as from any static server.
// `?lang=zh` and `?q=...` make a Chinese page or a search something to share by link.
(function () {
  "use strict";
  var KEY = "cann-docs-lang";
  var html = document.documentElement;
  var root = document.body.getAttribute("data-root") || "";

  function lang() { return html.classList.contains("lang-zh") ? "zh" : "en"; }

  function params() {
    try { return new URLSearchParams(window.location.search); } catch (e) { return null; }
  }

  // The address says what is shown: `lang` once the reader chose one, `q` while searching.
  function setParam(name, value) {
    var p = params();
    if (!p || !window.history || !window.history.replaceState) { return; }
    if (value) { p.set(name, value); } else { p.delete(name); }
    var s = p.toString();
    try {
      window.history.replaceState(null, "", window.location.pathname + (s ? "?" + s : "") + window.location.hash);
    } catch (e) { /* some file:// contexts refuse; the page still works */ }
  }

  function setLang(l, fromUrl) {
    html.classList.remove("lang-en", "lang-zh");
    html.classList.add("lang-" + l);
    html.lang = l;
    try { localStorage.setItem(KEY, l); } catch (e) { /* storage may be off */ }
    var box = document.getElementById("search");
    if (box) { box.placeholder = box.getAttribute("data-placeholder-" + l) || ""; }
    if (!fromUrl) { setParam("lang", l); }
    render();
  }

  var toggle = document.getElementById("lang-toggle");
  if (toggle) {
    toggle.addEventListener("click", function () { setLang(lang() === "zh" ? "en" : "zh"); });
  }

  // ---- search ----
  var index = window.CANN_SEARCH || [];
  var box = document.getElementById("search");
  var list = document.getElementById("search-results");

  // How well `item` matches `q`, and by what: the name, or else the field that matched,
  // so the result can show it (a ge key is not the name a reader sees).
  function score(item, q) {
    var name = item.name.toLowerCase();
    if (name === q) { return { s: 100 }; }
    if (name.indexOf(q) === 0) { return { s: 80 }; }
    if (name.indexOf(q) >= 0) { return { s: 60 }; }
    var fields = [["ge", item.ge], ["path", item.path], ["env", item.env], ["estimator", item.estimator], ["tf2", item.tf2]];
    for (var i = 0; i < fields.length; i++) {
      var v = fields[i][1] || "";
      if (v.toLowerCase().indexOf(q) >= 0) { return { s: v.toLowerCase() === q ? 90 : 40, by: fields[i][0], what: v }; }
    }
    var text = (item.en + " " + item.zh + " " + (item.values || "")).toLowerCase();
    var words = q.split(/\s+/).filter(Boolean);
    if (words.length && words.every(function (w) { return text.indexOf(w) >= 0; })) { return { s: 20, by: "text" }; }
    return { s: 0 };
  }

  var BY = {
    en: { ge: "graph-engine key", path: "config path", env: "environment variable", estimator: "Estimator keyword", tf2: "TF2 path", text: "matched in the description" },
    zh: { ge: "图引擎参数", path: "配置文件路径", env: "环境变量", estimator: "Estimator 参数", tf2: "TF2 路径", text: "在说明中匹配" }
  };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  function render() {
    if (!box || !list) { return; }
    var q = box.value.trim().toLowerCase();
    list.textContent = "";
    if (!q) { list.hidden = true; return; }
    var hits = index
      .map(function (item) { var m = score(item, q); return { item: item, s: m.s, by: m.by, what: m.what }; })
      .filter(function (h) { return h.s > 0; })
      .sort(function (a, b) { return b.s - a.s || a.item.name.localeCompare(b.item.name); })
      .slice(0, 20);
    if (!hits.length) {
      list.appendChild(el("li", "empty", lang() === "zh" ? "没有匹配的配置项" : "No matching option"));
    }
    hits.forEach(function (h, i) {
      var li = el("li");
      var a = el("a", i === 0 ? "active" : "");
      a.href = root + h.item.url;
      a.setAttribute("data-name", h.item.name);
      a.appendChild(el("code", "", h.item.name));
      a.appendChild(document.createTextNode(" · " + h.item["class"]));
      if (h.by) {
        var m = el("span", "matched", BY[lang()][h.by] + (h.what ? ": " : ""));
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
      if (ev.key === "Enter") {
        var first = list.querySelector("a");
        if (first) { window.location.href = first.href; }
      } else if (ev.key === "Escape") {
        box.value = "";
        setParam("q", "");
        render();
      }
    });
    document.addEventListener("click", function (ev) {
      if (!list.contains(ev.target) && ev.target !== box) { list.hidden = true; }
    });
    box.addEventListener("focus", render);
  }

  // ---- copy buttons ----
  Array.prototype.forEach.call(document.querySelectorAll("figure.snippet"), function (fig) {
    var button = fig.querySelector("button.copy");
    var code = fig.querySelector("pre code");
    if (!button || !code) { return; }
    button.addEventListener("click", function () {
      var text = code.textContent;
      function done() {
        button.classList.add("done");
        setTimeout(function () { button.classList.remove("done"); }, 1500);
      }
      function fallback() {
        var ta = document.createElement("textarea");
        ta.value = text;
        document.body.appendChild(ta);
        ta.select();
        try { document.execCommand("copy"); done(); } catch (e) { /* nothing to do */ }
        document.body.removeChild(ta);
      }
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, fallback);
      } else {
        fallback();
      }
    });
  });

  // ---- heading anchors and the page's contents ----
  var main = document.querySelector("main");
  if (main) {
    var heads = Array.prototype.slice.call(main.querySelectorAll("h2, h3"));
    heads.forEach(function (h, i) {
      if (!h.id) { h.id = "section-" + (i + 1); }
      var a = el("a", "anchor", "#");
      a.href = "#" + h.id;
      a.setAttribute("aria-label", "link to this section");
      h.appendChild(a);
    });
    var h2s = heads.filter(function (h) { return h.tagName === "H2"; });
    if (h2s.length >= 2) {
      var toc = el("nav", "toc");
      toc.id = "toc";
      toc.appendChild(el("strong", "", ""));
      toc.firstChild.innerHTML = '<span class="en" lang="en">On this page</span><span class="zh" lang="zh">本页内容</span>';
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
      if (h1 && h1.parentNode === main) { main.insertBefore(toc, h1.nextSibling); } else { main.insertBefore(toc, main.firstChild); }
    }
  }

  if (box) { box.placeholder = box.getAttribute("data-placeholder-" + lang()) || ""; }

  // ---- what the address asks for ----
  var p = params();
  if (p) {
    var l = p.get("lang");
    if (l === "zh" || l === "en") { setLang(l, true); }
    var q = p.get("q");
    if (q && box) { box.value = q; render(); }
  }
})();
