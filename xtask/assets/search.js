// Search over `window.CANN_SEARCH` (assets/search-index.js, generated from the spec).
// Chinese text is matched by character bigrams, so any run of characters of a description
// finds it, with or without spaces and mixed with Latin words (`动态shape` = `动态 shape`);
// Latin words by stem and prefix; a name typed with a typo by Jaro-Winkler similarity at the
// threshold of the CLI's "did you mean" (`window.CANN_SEARCH_TYPO`, the same port of strsim).
// Ranking: exact name or key, then a name or key containing the query, then a typo of a
// name, then descriptions, weighted by how rare each matched piece is (idf).
(function () {
  "use strict";
  var items = window.CANN_SEARCH || [];
  var TYPO = window.CANN_SEARCH_TYPO || 0.8;
  var CJK_RUN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|[a-z0-9]+/g;
  var IS_CJK = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;
  var STOP = { a: 1, an: 1, the: 1, of: 1, to: 1, "in": 1, "for": 1, and: 1, or: 1, is: 1, are: 1, how: 1, what: 1, which: 1, when: 1, "do": 1, does: 1, it: 1, on: 1, by: 1, with: 1, i: 1, my: 1, can: 1, be: 1 };
  var KEYS = ["name", "ge", "path", "env", "estimator", "session", "tf2"];

  function norm(s) {
    s = String(s || "");
    try { s = s.normalize("NFKC"); } catch (e) { /* old engines */ }
    return s.toLowerCase();
  }

  // strsim 0.11's jaro and jaro_winkler over code points, step for step.
  function jaro(a, b) {
    var al = a.length, bl = b.length;
    if (!al && !bl) { return 1; }
    if (!al || !bl) { return 0; }
    var range = Math.floor(Math.max(al, bl) / 2);
    range = range > 0 ? range - 1 : 0;
    var af = [], bf = [], m = 0, i, j;
    for (j = 0; j < bl; j++) { bf.push(false); }
    for (i = 0; i < al; i++) {
      af.push(false);
      var lo = i > range ? i - range : 0, hi = Math.min(bl, i + range + 1);
      for (j = lo; j < hi; j++) {
        if (a[i] === b[j] && !bf[j]) { af[i] = true; bf[j] = true; m++; break; }
      }
    }
    if (!m) { return 0; }
    var t = 0, k = 0;
    for (i = 0; i < al; i++) {
      if (!af[i]) { continue; }
      while (k < bl && !bf[k]) { k++; }
      if (k < bl) { if (a[i] !== b[k]) { t++; } k++; }
    }
    t = Math.floor(t / 2);
    return (m / al + m / bl + (m - t) / m) / 3;
  }

  function jaroWinkler(a, b) {
    a = Array.from(a); b = Array.from(b);
    var sim = jaro(a, b);
    if (sim <= 0.7) { return sim; }
    var p = 0;
    while (p < 4 && p < a.length && p < b.length && a[p] === b[p]) { p++; }
    return sim + 0.1 * p * (1 - sim);
  }

  // Latin words of a text: each word whole and, for camelCase (`staticMemoryPolicy`,
  // `GetNext`), its parts too.
  function words(s) {
    var out = [];
    String(s || "").split(/[^A-Za-z0-9]+/).forEach(function (w) {
      if (!w) { return; }
      out.push(norm(w));
      var parts = w.replace(/([a-z0-9])([A-Z])/g, "$1 $2").split(" ");
      if (parts.length > 1) { parts.forEach(function (x) { out.push(norm(x)); }); }
    });
    return out;
  }

  function grams(s, set, chars) {
    (norm(s).match(/[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/g) || []).forEach(function (run) {
      var cs = Array.from(run);
      for (var i = 0; i < cs.length; i++) {
        chars[cs[i]] = 1;
        if (i + 1 < cs.length) { set[cs[i] + cs[i + 1]] = 1; }
      }
    });
  }

  function field(w, latin, cjk) {
    var f = { w: w, words: [], grams: {}, chars: {}, text: norm(cjk) };
    latin.forEach(function (s) { f.words = f.words.concat(words(s)); });
    grams(cjk, f.grams, f.chars);
    return f;
  }

  // The first sentence says what an option is; the rest, what it interacts with.
  function lead(s) {
    var m = String(s || "").match(/^[^。；;]*?(?:[。；;]|\.(?:\s|$)|$)/);
    return m ? m[0] : "";
  }

  var prepared = items.map(function (it) {
    return {
      item: it,
      keys: KEYS.map(function (k) { return [k, it[k] ? String(it[k]) : ""]; }),
      fields: [
        field(3, KEYS.map(function (k) { return it[k]; }), ""),
        field(2.5, [lead(it.en)], lead(it.zh)),
        field(2, [it.en], it.zh),
        field(1, [it.values, it.valuesEn], it.valuesZh || "")
      ]
    };
  });

  // The query's pieces: Chinese bigrams (a lone character alone), Latin word stems.
  function stem(w) {
    if (w.length > 5 && /ies$/.test(w)) { return w.slice(0, -3) + "y"; }
    if (w.length > 5 && /ing$/.test(w)) { return w.slice(0, -3); }
    if (w.length > 4 && /(ed|es)$/.test(w)) { return w.slice(0, -2); }
    if (w.length > 3 && /s$/.test(w) && !/ss$/.test(w)) { return w.slice(0, -1); }
    return w;
  }

  function units(q) {
    var out = [], runs = q.match(CJK_RUN) || [];
    var latin = runs.filter(function (r) { return !IS_CJK.test(r); });
    runs.forEach(function (r) {
      if (IS_CJK.test(r)) {
        var cs = Array.from(r);
        if (cs.length === 1) { out.push({ cjk: true, u: cs[0], one: true, run: r }); }
        for (var i = 0; i + 1 < cs.length; i++) { out.push({ cjk: true, u: cs[i] + cs[i + 1], run: r }); }
      } else if (!(STOP[r] && (latin.length > 1 || runs.length > 1))) {
        out.push({ cjk: false, u: stem(r), whole: r });
      }
    });
    return out;
  }

  function found(f, u) {
    if (u.cjk) { return u.one ? !!f.chars[u.u] : !!f.grams[u.u]; }
    for (var i = 0; i < f.words.length; i++) {
      var w = f.words[i];
      if (w === u.u || w === u.whole || (u.u.length >= 3 && w.indexOf(u.u) === 0)) { return true; }
    }
    return false;
  }

  // Ranks by name or key first: exact, prefix, contained (spaces and dashes read as `_`).
  function byKey(p, q) {
    var best = null;
    var forms = [q, q.replace(/[\s-]+/g, "_"), q.replace(/[\s_-]+/g, "")];
    p.keys.forEach(function (kv) {
      var v = norm(kv[1]);
      if (!v) { return; }
      var flat = v.replace(/[_.]/g, "");
      forms.forEach(function (f, fi) {
        if (!f) { return; }
        var hay = fi === 2 ? flat : v, s = 0;
        if (hay === f) { s = kv[0] === "name" ? 1000 : 950; }
        else if (hay.indexOf(f) === 0) { s = kv[0] === "name" ? 850 : 800; }
        else if (f.length >= 3 && hay.indexOf(f) > 0) { s = kv[0] === "name" ? 750 : 700; }
        if (s && (!best || s > best.s)) { best = { s: s, by: kv[0] === "name" ? null : kv[0], what: kv[0] === "name" ? null : kv[1] }; }
      });
    });
    return best;
  }

  function search(query) {
    var q = norm(query).trim();
    if (!q) { return []; }
    var us = units(q);
    var latinOnly = !IS_CJK.test(q);
    var single = latinOnly ? q.replace(/[\s-]+/g, "_") : "";
    var idf = us.map(function (u) {
      var df = 0;
      prepared.forEach(function (p) { if (p.fields.some(function (f) { return found(f, u); })) { df++; } });
      return df ? Math.log(1 + prepared.length / df) : 0;
    });
    var total = idf.reduce(function (a, b) { return a + b; }, 0);
    var hits = [];
    prepared.forEach(function (p) {
      var it = p.item, best = latinOnly ? byKey(p, q) : null;
      if (!best && single.length >= 4 && /^[a-z0-9_.]+$/.test(single)) {
        var sim = jaroWinkler(single, norm(it.name));
        if (sim > TYPO) { best = { s: 500 + 100 * sim, by: "typo" }; }
      }
      if (!best && total > 0) {
        // Each piece counts by its rarity (idf) and the best field it is in (name 3,
        // description 2, values 1), plus a little for each other field that has it.
        var got = 0, covered = 0;
        us.forEach(function (u, i) {
          if (!idf[i]) { return; }
          var w = 0, also = 0;
          p.fields.forEach(function (f) {
            if (!found(f, u)) { return; }
            if (f.w > w) { also += w; w = f.w; } else { also += f.w; }
          });
          if (w) { got += idf[i] * (w + 0.25 * also); covered += idf[i]; }
        });
        if (covered / total >= 0.5) {
          // A Chinese run of the query found whole in a field counts again, by that field.
          var runs = {}, bonus = 0;
          us.forEach(function (u, i) { if (u.cjk && !u.one) { runs[u.run] = (runs[u.run] || 0) + idf[i]; } });
          Object.keys(runs).forEach(function (r) {
            var w = 0;
            p.fields.forEach(function (f) { if (f.w > w && f.text.indexOf(r) >= 0) { w = f.w; } });
            bonus += runs[r] * w * 0.5;
          });
          var s = 100 + 300 * ((got + bonus) / (6 * total)) * (covered / total);
          // Among equals, the option whose first sentence is shorter is more about it.
          s -= Math.min(Array.from(p.fields[1].text).length, 200) / 100;
          if (it.removed) { s *= 0.9; }
          best = { s: Math.min(s, 499), by: "text" };
        }
      }
      if (best) { hits.push({ item: it, s: best.s, by: best.by, what: best.what }); }
    });
    hits.sort(function (a, b) {
      return b.s - a.s || (a.item.kind === "option" ? 0 : 1) - (b.item.kind === "option" ? 0 : 1) ||
        String(a.item.zh).length - String(b.item.zh).length || a.item.name.localeCompare(b.item.name);
    });
    return hits;
  }

  window.CANN_SEARCH_ENGINE = { search: search, jaroWinkler: jaroWinkler };
})();
