// The release × product picker: lists exactly the options `cannctl check` accepts for the
// chosen release and product, with the values each takes there, from `window.CANN_PICKER`
// (picker-data.js, generated from the spec: product bit masks per release). The choice is in
// the address (`?release=&product=`); each option links to its page viewed at that release.
(function () {
  "use strict";
  var data = window.CANN_PICKER, site = window.CANN_SITE;
  var rel = document.getElementById("pick-release"), prod = document.getElementById("pick-product");
  var body = document.querySelector("#pick-list tbody"), count = document.getElementById("pick-count");
  if (!data || !site || !rel || !prod || !body) { return; }

  function fill() {
    var r = rel.value, p = prod.value;
    rel.textContent = "";
    data.releases.forEach(function (x) {
      var o = document.createElement("option");
      o.value = x.id;
      // A release not out yet says so, in the page's language.
      o.textContent = x.unreleased ? x.id + " (" + site.text("unreleased") + ")" : x.id;
      if (x.unreleased) { o.className = "unreleased"; }
      rel.appendChild(o);
    });
    prod.textContent = "";
    data.products.forEach(function (x) {
      var o = document.createElement("option");
      o.value = x.id;
      o.textContent = x[site.lang()] || x.en;
      prod.appendChild(o);
    });
    if (r) { rel.value = r; }
    if (p) { prod.value = p; }
  }

  function show() {
    var ri = data.releases.findIndex(function (x) { return x.id === rel.value; });
    var pi = data.products.findIndex(function (x) { return x.id === prod.value; });
    body.textContent = "";
    if (ri < 0 || pi < 0) { return; }
    site.setParam("release", rel.value);
    site.setParam("product", prod.value);
    var bit = Math.pow(2, pi);
    if (!(Math.floor(data.releases[ri].products / bit) % 2)) {
      count.textContent = site.text("notInRelease");
      return;
    }
    var n = 0;
    data.options.forEach(function (o) {
      if (!(Math.floor(o.support[ri] / bit) % 2)) { return; }
      n++;
      var tr = document.createElement("tr");
      tr.setAttribute("data-path", o.path);
      var td = document.createElement("td");
      var a = document.createElement("a");
      a.href = site.withLang("options/" + o.path + ".html?release=" + encodeURIComponent(rel.value));
      var code = document.createElement("code");
      code.textContent = o.name;
      a.appendChild(code);
      td.appendChild(a);
      tr.appendChild(td);
      var vs = document.createElement("td");
      o.values.forEach(function (v) {
        if (!(Math.floor(v[1][ri] / bit) % 2)) { return; }
        var c = document.createElement("code");
        c.textContent = v[0];
        if (vs.childNodes.length) { vs.appendChild(document.createTextNode(" ")); }
        vs.appendChild(c);
      });
      tr.appendChild(vs);
      body.appendChild(tr);
    });
    count.textContent = site.text("count").replace("{count}", String(n));
  }

  fill();
  var p = site.params();
  // The newest released release, as `cannctl check` defaults to; an unreleased one only by
  // name (`?release=next`).
  var released = data.releases.filter(function (x) { return !x.unreleased; });
  var last = released[released.length - 1] || data.releases[data.releases.length - 1];
  rel.value = (p && p.get("release")) || (last ? last.id : "");
  prod.value = (p && p.get("product")) || (data.products[0] ? data.products[0].id : "");
  if (rel.selectedIndex < 0 && last) { rel.value = last.id; }
  if (prod.selectedIndex < 0 && data.products[0]) { prod.value = data.products[0].id; }
  rel.addEventListener("change", show);
  prod.addEventListener("change", show);
  document.addEventListener("cann-lang", function () { fill(); show(); });
  show();
})();
