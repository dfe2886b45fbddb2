// Language switch, search and copy buttons. No framework and no network: the search
// index is `window.CANN_SEARCH`, defined by search-index.js through a script tag, so the
// site works from file:// as well as from any static server.
(function () {
  "use strict";
  var KEY = "cann-docs-lang";
  var html = document.documentElement;
  var root = document.body.getAttribute("data-root") || "";

  function lang() { return html.classList.contains("lang-zh") ? "zh" : "en"; }

  function setLang(l) {
    html.classList.remove("lang-en", "lang-zh");
    html.classList.add("lang-" + l);
    html.lang = l;
    try { localStorage.setItem(KEY, l); } catch (e) { /* storage may be off */ }
    var box = document.getElementById("search");
    if (box) { box.placeholder = box.getAttribute("data-placeholder-" + l) || ""; }
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

  function score(item, q) {
    var name = item.name.toLowerCase();
    var path = (item.path || "").toLowerCase();
    if (name === q) { return 100; }
    if (name.indexOf(q) === 0) { return 80; }
    if (name.indexOf(q) >= 0) { return 60; }
    if (path.indexOf(q) >= 0 || (item.ge || "").toLowerCase().indexOf(q) >= 0) { return 40; }
    var text = (item.en + " " + item.zh + " " + (item.values || "")).toLowerCase();
    var words = q.split(/\s+/).filter(Boolean);
    if (words.length && words.every(function (w) { return text.indexOf(w) >= 0; })) { return 20; }
    return 0;
  }

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
      .map(function (item) { return { item: item, s: score(item, q) }; })
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
      a.appendChild(el("small", "", lang() === "zh" ? h.item.zh : h.item.en));
      li.appendChild(a);
      list.appendChild(li);
    });
    list.hidden = false;
  }

  if (box && list) {
    box.addEventListener("input", render);
    box.addEventListener("keydown", function (ev) {
      if (ev.key === "Enter") {
        var first = list.querySelector("a");
        if (first) { window.location.href = first.href; }
      } else if (ev.key === "Escape") {
        box.value = "";
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

  if (box) { box.placeholder = box.getAttribute("data-placeholder-" + lang()) || ""; }
})();
