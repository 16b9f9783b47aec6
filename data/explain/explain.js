// blockcheck explain: draws the JSON blob #explain-data. Every number comes from the block (C++);
// this script only draws, formats and switches between precomputed values. No network.
(function () {
  'use strict';
  window.onerror = function (message, source, line) {
    document.body.setAttribute('data-error', String(message) + ' (line ' + line + ')');
  };
  window.addEventListener('unhandledrejection', function (event) {
    document.body.setAttribute('data-error', String(event.reason));
  });

  var DATA = JSON.parse(document.getElementById('explain-data').textContent);
  var MODES = ['basics', 'advanced', 'practice', 'optimisation'];
  var state = {
    lang: DATA.lang === 'zh' ? 'zh' : 'en', mode: 'basics',
    stampPos: 3, dialPos: 5, distance: 8, shift: 1, stage: 0, token: 3,
    preset: 0, seq: 1, group: 3, factor: 3, budget: 0
  };

  // ------------------------------------------------------------------------------------------
  // Prose in both languages

  var TEXT = {
    en: {
      title: 'RoPE, RMSNorm, SwiGLU and GQA, drawn',
      intro: 'Every number on this page was computed by blockcheck\u2019s block implementation and embedded in the page; the sliders move between those values.',
      lang_button: '\u4e2d\u6587', lang_label: 'Switch the page to Chinese',
      modes_label: 'Modes',
      basics: 'Basics', advanced: 'Advanced', practice: 'Practice', optimisation: 'Optimisation',
      basics_summary: 'The three mechanisms in two dimensions: a stamp turning with position (RoPE), one row rescaled by its root mean square (RMSNorm), and a smooth gate instead of a hard cut (SiLU, SwiGLU).',
      advanced_summary: 'Many frequencies at once: one dial per coordinate pair, the score of a rotated query and key depending only on their distance, and what a shift of the row does to RMSNorm and LayerNorm.',
      practice_summary: 'The chapter\u2019s modern block (figure 25.1) on data/cases/modern-small.json, one stage at a time with the shape at each arrow, the attention weights, and your own check results beside the reference.',
      optimisation_summary: 'What the choices cost: the KV cache of MHA, GQA and MQA at LLaMA-like sizes, linear versus NTK-aware RoPE scaling, and the FFN parameter budget of ReLU versus SwiGLU.',
      stamps: 'Rotating stamps: a quarter turn and 30\u00b0 per position', position: 'position',
      quarter: 'quarter turn (90\u00b0)', deg30: '30\u00b0 stamp',
      stamps_sum: function (p, q, d) { return 'Position ' + p + ': the quarter-turn stamp points to [' + q + '] (' + (90 * p) + '\u00b0), the 30\u00b0 stamp to [' + d + '] (' + (30 * p) + '\u00b0). Both start at [1, 0]; only the angle grows with position, the length stays 1.'; },
      rms: 'RMSNorm of the row [3, 4] (example 25.2)', row: 'row', squares: 'squares', rescaled: 'rescaled row',
      rms_sum: function (r) { return 'Squares 9 and 16, mean square ' + f(r.mean_square) + ', RMS ' + f(r.rms) + '; the row divided by it is [' + fv(r.normed) + '], whose mean square is ' + f(r.normed_mean_square) + '.'; },
      act: 'ReLU, SiLU and the SiLU-gated product', act_gated: 'SiLU(a) \u00d7 2 (gated by an up value of 2)',
      act_sum: function (a) { return 'SiLU(1) = ' + f(a.silu[50]) + ', SiLU(\u22121) = ' + f(a.silu[30]) + ' (ReLU gives 1 and 0). Example 25.3: gate [' + fv(a.example.gate) + '], up [' + fv(a.example.up) + '], product [' + fv(a.example.product) + '], output [' + fv(a.example.output) + '].'; },
      dials: 'Multi-frequency RoPE: one dial per pair, fast to slow (d = 8, \u03b8 = 10000)', pair: 'pair',
      rad_per_pos: 'rad/position',
      dials_sum: function (p, ang, inv) { return 'Position ' + p + ': pair angles ' + ang.map(function (a) { return f(a, 3); }).join(', ') + ' rad (turning ' + inv.map(function (x) { return f(x, 4); }).join(', ') + ' rad per position). Pair 0 turns fastest, the last pair slowest.'; },
      distance: 'Score of a rotated query and key against their distance (d = 16)', dist: 'distance n \u2212 m',
      from0: 'query at m = 0', from10: 'query at m = 10', dot: 'q\u00b7k',
      distance_sum: function (n, a, b) { return 'At distance ' + n + ' the dot product is ' + f(a) + ' with the query at 0 and ' + f(b) + ' with it at 10: the same, because only the relative angle enters.'; },
      shift: 'RMSNorm vs LayerNorm on shifted rows [3 + s, 4 + s]', shift_label: 'shift s',
      input: 'input row', rmsnorm: 'RMSNorm', layernorm: 'LayerNorm',
      shift_sum: function (s, row, r, l) { return 'Row [' + fv(row) + ']: RMSNorm gives [' + fv(r) + '] (its direction follows the shift), LayerNorm gives [' + fv(l) + '] for every shift (the mean is subtracted).'; },
      block: 'The modern block step by step (figure 25.1)', stage: 'stage', token: 'token row',
      block_sum: function (st, label, t, row) { return 'Stage ' + label + ' has shape ' + st.shape + '; token ' + t + ' is [' + fv(row, 4) + '].'; },
      stage_labels: { X: 'X input', N: 'RMSNorm(X)', Q: 'Q: 3 heads \u00d7 4', K: 'K: heads \u00d7 4', V: 'V: heads \u00d7 4',
        Q_rotated: 'rotate Q', K_rotated: 'rotate K (V not)', heads: 'causal attention', attention_output: 'output projection',
        R: 'R = X + attention', M: 'RMSNorm(R)', gate: 'gate [.,32]', up: 'up [.,32]', hidden: 'SiLU(gate) \u00d7 up',
        down: 'down projection', output: 'Y = R + FFN' },
      heatmap: 'values of the stage, rows are tokens',
      attention: 'Causal attention weights per head (rows: queries, columns: keys)', head: 'head',
      attention_sum: function (n) { return n + ' heads; each row sums to 1 and keys after the query get weight 0 (the causal mask).'; },
      check: 'Your answers beside the reference', check_none: 'No check results given. Run blockcheck check --json > mine.json, then blockcheck explain --html page.html --check-results mine.json.',
      exercise: 'exercise', part: 'part', verdict: 'verdict', points: 'points', reference: 'reference', message: 'your answer',
      check_sum: function (done, n, s, m) { return done + ' of ' + n + ' exercises done, ' + s + '/' + m + ' points.'; },
      kv: 'KV cache of MHA, GQA and MQA (fp16, batch 1)', model: 'model', sequence: 'sequence', groups: 'KV heads (groups)',
      kv_sum: function (p, s, g, mha, gqa, mqa) { return p.name + '-like (' + p.layers + ' layers, ' + p.query_heads + ' query heads \u00d7 ' + p.head_dim + '), ' + s + ' tokens: MHA ' + mha + ', GQA with ' + g + ' KV heads ' + gqa + ', MQA ' + mqa + '.'; },
      scaling: 'RoPE scaling: radians per position of each pair (d = 128, log scale)', factor: 'factor s',
      none: 'unscaled', linear: 'linear (positions / s)', ntk: 'NTK-aware (base \u00d7 s^(d/(d\u22122)))',
      scaling_sum: function (s, b0, l0, n0, b1, l1, n1, base) { return 'Factor ' + s + ': pair 0 turns ' + f(b0, 4) + ' rad/position unscaled, ' + f(l0, 4) + ' linear, ' + f(n0, 4) + ' NTK (kept); the last pair ' + e(b1) + ', ' + e(l1) + ' linear, ' + e(n1) + ' NTK (both slowed by s). NTK base: ' + f(base, 0) + '.'; },
      budget: 'FFN matrix parameters: ReLU vs SwiGLU (table 25.2)', width: 'width C',
      budget_rows: ['ReLU, width F', 'SwiGLU, same width F', 'SwiGLU, width 2F/3', 'SwiGLU, LLaMA width'],
      budget_sum: function (b) { return 'C = ' + b.hidden + ': ReLU at F = ' + b.relu_hidden + ' has ' + b.relu + ' parameters; SwiGLU at the same width ' + b.swiglu_same + ' (1.5\u00d7); at F = ' + b.matched_hidden + ' it matches with ' + b.swiglu_matched + '.'; }
    },
    zh: {
      title: 'RoPE、RMSNorm、SwiGLU 与 GQA：图解',
      intro: '本页每个数都由 blockcheck 的块实现算出并嵌入页面；滑块只在这些预先算好的值之间切换。',
      lang_button: 'English', lang_label: '切换为英文',
      modes_label: '模式',
      basics: '入门', advanced: '进阶', practice: '实战', optimisation: '优化',
      basics_summary: '二维里的三个机制：随位置旋转的印章（RoPE）、按均方根缩放的一行（RMSNorm）、平滑的闸门代替一刀切（SiLU、SwiGLU）。',
      advanced_summary: '多个频率同时作用：每个坐标对一个表盘；旋转后查询与键的点积只取决于距离；行整体平移时 RMSNorm 与 LayerNorm 的不同。',
      practice_summary: '本章现代块（图 25.1）在 data/cases/modern-small.json 上逐步计算，箭头处标出形状；注意力权重；以及你的检查结果与参考值并列。',
      optimisation_summary: '各种选择的代价：LLaMA 规模下 MHA、GQA、MQA 的 KV 缓存；线性与 NTK 感知的 RoPE 缩放；ReLU 与 SwiGLU 的 FFN 参数预算。',
      stamps: '旋转印章：每个位置转四分之一圈 / 30°', position: '位置',
      quarter: '四分之一圈（90°）', deg30: '30° 印章',
      stamps_sum: function (p, q, d) { return '位置 ' + p + '：四分之一圈印章指向 [' + q + ']（' + (90 * p) + '°），30° 印章指向 [' + d + ']（' + (30 * p) + '°）。两者都从 [1, 0] 出发；随位置增长的只是角度，长度始终为 1。'; },
      rms: '行 [3, 4] 的 RMSNorm（例 25.2）', row: '原行', squares: '平方', rescaled: '缩放后的行',
      rms_sum: function (r) { return '平方为 9 和 16，平方平均 ' + f(r.mean_square) + '，均方根 ' + f(r.rms) + '；相除得到 [' + fv(r.normed) + ']，其平方平均为 ' + f(r.normed_mean_square) + '。'; },
      act: 'ReLU、SiLU 与 SiLU 门控乘积', act_gated: 'SiLU(a) × 2（上投影值为 2）',
      act_sum: function (a) { return 'SiLU(1) = ' + f(a.silu[50]) + '，SiLU(−1) = ' + f(a.silu[30]) + '（ReLU 给出 1 和 0）。例 25.3：门控 [' + fv(a.example.gate) + ']，上投影 [' + fv(a.example.up) + ']，乘积 [' + fv(a.example.product) + ']，输出 [' + fv(a.example.output) + ']。'; },
      dials: '多频率 RoPE：每个坐标对一个表盘，由快到慢（d = 8，θ = 10000）', pair: '坐标对',
      rad_per_pos: '弧度/位置',
      dials_sum: function (p, ang, inv) { return '位置 ' + p + '：各坐标对角度 ' + ang.map(function (a) { return f(a, 3); }).join('、') + ' 弧度（每个位置分别转 ' + inv.map(function (x) { return f(x, 4); }).join('、') + ' 弧度）。第 0 对最快，最后一对最慢。'; },
      distance: '旋转后查询与键的点积随距离变化（d = 16）', dist: '距离 n − m',
      from0: '查询在 m = 0', from10: '查询在 m = 10', dot: 'q·k',
      distance_sum: function (n, a, b) { return '距离 ' + n + ' 时，查询在 0 的点积为 ' + f(a) + '，在 10 的为 ' + f(b) + '：两者相同，因为只有相对角度起作用。'; },
      shift: '平移后的行 [3 + s, 4 + s]：RMSNorm 与 LayerNorm', shift_label: '平移 s',
      input: '输入行', rmsnorm: 'RMSNorm', layernorm: 'LayerNorm',
      shift_sum: function (s, row, r, l) { return '行 [' + fv(row) + ']：RMSNorm 得 [' + fv(r) + ']（方向随平移改变），LayerNorm 对每个平移都得 [' + fv(l) + ']（减去了均值）。'; },
      block: '现代块逐步计算（图 25.1）', stage: '步骤', token: 'token 行',
      block_sum: function (st, label, t, row) { return '步骤「' + label + '」的形状为 ' + st.shape + '；第 ' + t + ' 个 token 为 [' + fv(row, 4) + ']。'; },
      stage_labels: { X: 'X 输入', N: 'RMSNorm(X)', Q: 'Q：3 个头 × 4', K: 'K：头 × 4', V: 'V：头 × 4',
        Q_rotated: '旋转 Q', K_rotated: '旋转 K（V 不转）', heads: '因果注意力', attention_output: '输出投影',
        R: 'R = X + 注意力', M: 'RMSNorm(R)', gate: '门控 [.,32]', up: '上投影 [.,32]', hidden: 'SiLU(门控) × 上投影',
        down: '下投影', output: 'Y = R + FFN' },
      heatmap: '该步骤的数值，每行一个 token',
      attention: '每个头的因果注意力权重（行：查询，列：键）', head: '头',
      attention_sum: function (n) { return n + ' 个头；每行之和为 1，查询之后的键权重为 0（因果掩码）。'; },
      check: '你的答案与参考值并列', check_none: '未提供检查结果。先运行 blockcheck check --json > mine.json，再运行 blockcheck explain --html page.html --check-results mine.json。',
      exercise: '练习', part: '部分', verdict: '判定', points: '得分', reference: '参考值', message: '你的答案',
      check_sum: function (done, n, s, m) { return n + ' 个练习中完成 ' + done + ' 个，得分 ' + s + '/' + m + '。'; },
      kv: 'MHA、GQA、MQA 的 KV 缓存（fp16，批量 1）', model: '模型', sequence: '序列长度', groups: 'KV 头数（组数）',
      kv_sum: function (p, s, g, mha, gqa, mqa) { return '类 ' + p.name + '（' + p.layers + ' 层，' + p.query_heads + ' 个查询头 × ' + p.head_dim + '），' + s + ' 个 token：MHA ' + mha + '，GQA（' + g + ' 个 KV 头）' + gqa + '，MQA ' + mqa + '。'; },
      scaling: 'RoPE 缩放：各坐标对每个位置转过的弧度（d = 128，对数坐标）', factor: '倍数 s',
      none: '不缩放', linear: '线性（位置 / s）', ntk: 'NTK 感知（底数 × s^(d/(d−2))）',
      scaling_sum: function (s, b0, l0, n0, b1, l1, n1, base) { return '倍数 ' + s + '：第 0 对不缩放时每位置转 ' + f(b0, 4) + ' 弧度，线性 ' + f(l0, 4) + '，NTK ' + f(n0, 4) + '（保持不变）；最后一对 ' + e(b1) + '，线性 ' + e(l1) + '，NTK ' + e(n1) + '（都慢了 s 倍）。NTK 底数：' + f(base, 0) + '。'; },
      budget: 'FFN 矩阵参数：ReLU 与 SwiGLU（表 25.2）', width: '宽度 C',
      budget_rows: ['ReLU，宽度 F', 'SwiGLU，同宽 F', 'SwiGLU，宽度 2F/3', 'SwiGLU，LLaMA 宽度'],
      budget_sum: function (b) { return 'C = ' + b.hidden + '：ReLU 在 F = ' + b.relu_hidden + ' 时有 ' + b.relu + ' 个参数；同宽 SwiGLU 有 ' + b.swiglu_same + '（1.5 倍）；F = ' + b.matched_hidden + ' 时为 ' + b.swiglu_matched + '，预算相等。'; }
    }
  };
  function t(key) { var v = TEXT[state.lang][key]; return v === undefined ? TEXT.en[key] : v; }

  // ------------------------------------------------------------------------------------------
  // Formatting and drawing helpers

  function f(x, digits) { return Number(x).toFixed(digits === undefined ? 6 : digits).replace(/^-(0\.0*)$/, '$1'); }
  function fv(v, digits) { return v.map(function (x) { return f(x, digits); }).join(', '); }
  function e(x) { return Number(x).toExponential(3); }
  function bytes(n) { return (n / Math.pow(1024, 3)).toFixed(n < 1024 * 1024 * 1024 ? 3 : 2) + ' GiB'; }

  var SVGNS = 'http://www.w3.org/2000/svg';
  var SVG_TAGS = { svg: 1, g: 1, line: 1, circle: 1, rect: 1, path: 1, polyline: 1, text: 1, defs: 1, marker: 1, desc: 1 };
  var uid = 0;
  function el(tag, attrs, parent, text) {
    var inSvg = SVG_TAGS[tag] || (tag === 'title' && parent && parent.namespaceURI === SVGNS);
    var node = inSvg ? document.createElementNS(SVGNS, tag) : document.createElement(tag);
    for (var k in attrs || {}) if (attrs[k] !== undefined && attrs[k] !== null) node.setAttribute(k, attrs[k]);
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }
  // An SVG with a <title> and <desc> named by aria-labelledby.
  function svgBox(parent, w, h, cls, title, desc) {
    var id = 'svg' + (++uid);
    var s = el('svg', { viewBox: '0 0 ' + w + ' ' + h, role: 'img', class: cls, 'aria-labelledby': id + '-t ' + id + '-d' }, parent);
    el('title', { id: id + '-t' }, s, title);
    el('desc', { id: id + '-d' }, s, desc);
    return s;
  }
  function arrowMarker(s) {
    var defs = el('defs', {}, s);
    var m = el('marker', { id: 'arrowhead', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, defs);
    el('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#8a93a6' }, m);
  }
  function legend(parent, items) {
    var d = el('div', { class: 'legend' }, parent);
    items.forEach(function (it) { el('span', { class: it[0] }, d, it[1]); });
  }

  // A line chart: xs, series [{ys, cls}], optional log y; returns nothing.
  function lineChart(s, o) {
    var W = o.w, H = o.h, L = 52, R = 12, T = 12, B = 34;
    var ys = [];
    o.series.forEach(function (se) { se.ys.forEach(function (y) { ys.push(o.log ? Math.log10(y) : y); }); });
    var ymin = o.ymin !== undefined ? o.ymin : Math.min.apply(null, ys), ymax = o.ymax !== undefined ? o.ymax : Math.max.apply(null, ys);
    if (ymax === ymin) { ymax += 1; ymin -= 1; }
    var xmin = o.xs[0], xmax = o.xs[o.xs.length - 1];
    function X(x) { return L + (x - xmin) / (xmax - xmin) * (W - L - R); }
    function Y(y) { return T + (ymax - (o.log ? Math.log10(y) : y)) / (ymax - ymin) * (H - T - B); }
    var ticks = o.log ? [] : niceTicks(ymin, ymax);
    if (o.log) for (var p = Math.ceil(ymin); p <= Math.floor(ymax); p += (ymax - ymin > 8 ? 2 : 1)) ticks.push(Math.pow(10, p));
    ticks.forEach(function (v) {
      el('line', { x1: L, x2: W - R, y1: Y(v), y2: Y(v), class: 'grid-line' }, s);
      el('text', { x: L - 5, y: Y(v) + 4, 'text-anchor': 'end', class: 'muted' }, s, o.log ? '1e' + Math.round(Math.log10(v)) : +v.toFixed(2));
    });
    niceTicks(xmin, xmax).forEach(function (v) {
      el('text', { x: X(v), y: H - B + 16, 'text-anchor': 'middle', class: 'muted' }, s, +v.toFixed(2));
    });
    el('line', { x1: L, x2: W - R, y1: H - B, y2: H - B, class: 'axis' }, s);
    el('line', { x1: L, x2: L, y1: T, y2: H - B, class: 'axis' }, s);
    if (!o.log && ymin < 0 && ymax > 0) el('line', { x1: L, x2: W - R, y1: Y(0), y2: Y(0), class: 'axis' }, s);
    el('text', { x: (L + W - R) / 2, y: H - 3, 'text-anchor': 'middle', class: 'muted' }, s, o.xlabel);
    o.series.forEach(function (se) {
      var pts = o.xs.map(function (x, i) { return X(x).toFixed(1) + ',' + Y(se.ys[i]).toFixed(1); }).join(' ');
      el('polyline', { points: pts, class: se.cls }, s);
    });
    (o.points || []).forEach(function (p) { el('circle', { cx: X(p[0]), cy: Y(p[1]), r: 5, class: p[2] }, s); });
    if (o.marker !== undefined) el('line', { x1: X(o.marker), x2: X(o.marker), y1: T, y2: H - B, class: 'axis', 'stroke-dasharray': '3 3' }, s);
  }
  function niceTicks(a, b) {
    var span = b - a, step = Math.pow(10, Math.floor(Math.log10(span / 4)));
    if (span / step > 10) step *= 2;
    if (span / step > 10) step *= 2.5;
    var out = [];
    for (var v = Math.ceil(a / step) * step; v <= b + 1e-9; v += step) out.push(Math.abs(v) < 1e-12 ? 0 : v);
    return out;
  }

  // A dial: circle, ghost arrows for earlier positions, the current arrow.
  function dial(s, cx, cy, r, angle, cls, ghosts, label) {
    el('circle', { cx: cx, cy: cy, r: r, class: 'dial' }, s);
    (ghosts || []).forEach(function (a) {
      el('line', { x1: cx, y1: cy, x2: cx + r * 0.9 * Math.cos(a), y2: cy - r * 0.9 * Math.sin(a), class: 'ghost' }, s);
    });
    el('line', { x1: cx, y1: cy, x2: cx + r * 0.92 * Math.cos(angle), y2: cy - r * 0.92 * Math.sin(angle), class: cls }, s);
    el('circle', { cx: cx + r * 0.92 * Math.cos(angle), cy: cy - r * 0.92 * Math.sin(angle), r: 4.5, class: cls === 'arrow' ? 'p1' : 'p2' }, s);
    if (label) el('text', { x: cx, y: cy + r + 16, 'text-anchor': 'middle' }, s, label);
  }

  // Diverging colour for a value scaled to [-1, 1]: blue positive, red negative.
  function heat(v) {
    var a = Math.min(1, Math.abs(v));
    var c = v >= 0 ? [59, 111, 216] : [194, 65, 59];
    var mix = function (k) { return Math.round(255 + (c[k] - 255) * a); };
    return 'rgb(' + mix(0) + ',' + mix(1) + ',' + mix(2) + ')';
  }

  // A figure: heading, sliders, a drawing area redrawn on every change, a text summary.
  function figure(parent, id, titleKey, controls, draw, wide) {
    var fig = el('figure', { class: 'fig' + (wide ? ' wide' : ''), id: id }, parent);
    el('h3', {}, fig, t(titleKey));
    var ctl = el('div', { class: 'controls' }, fig);
    var area = el('div', { class: 'area' }, fig);
    var summary = el('p', { class: 'summary', 'aria-live': 'polite' }, fig);
    function redraw() { area.textContent = ''; summary.textContent = draw(area) || ''; }
    controls.forEach(function (c) {
      var inputId = id + '-' + c.key;
      var lab = el('label', { for: inputId }, ctl, t(c.label));
      var input = el('input', { type: 'range', id: inputId, min: c.min, max: c.max, step: 1, value: state[c.key] }, lab);
      var out = el('output', { for: inputId }, lab, c.show(state[c.key]));
      input.addEventListener('input', function () {
        state[c.key] = +input.value;
        out.textContent = c.show(state[c.key]);
        redraw();
      });
    });
    redraw();
    return fig;
  }
  function clampState(key, max) { if (state[key] > max) state[key] = max; }

  // ------------------------------------------------------------------------------------------
  // 入门 basics

  function basics(panel) {
    var b = DATA.basics;
    figure(panel, 'fig-stamps', 'stamps', [{ key: 'stampPos', label: 'position', min: 0, max: 11, show: String }], function (area) {
      var p = state.stampPos, q = b.stamps.quarter[p], d = b.stamps.deg30[p];
      var sum = t('stamps_sum')(p, fv(q, 3), fv(d, 3));
      var s = svgBox(area, 420, 210, 'stamps', t('stamps'), sum);
      var gq = [], gd = [];
      for (var i = 0; i < p; ++i) { gq.push(Math.atan2(b.stamps.quarter[i][1], b.stamps.quarter[i][0])); gd.push(Math.atan2(b.stamps.deg30[i][1], b.stamps.deg30[i][0])); }
      dial(s, 105, 95, 75, Math.atan2(q[1], q[0]), 'arrow', gq, t('quarter') + ': [' + fv(q, 2) + ']');
      dial(s, 315, 95, 75, Math.atan2(d[1], d[0]), 'arrow2', gd, t('deg30') + ': [' + fv(d, 2) + ']');
      return sum;
    });
    figure(panel, 'fig-rms', 'rms', [], function (area) {
      var r = b.rms, sum = t('rms_sum')(r);
      var s = svgBox(area, 420, 210, 'rms', t('rms'), sum);
      var base = 175, u = 30;
      var bars = [[r.row[0], 'p0', '3'], [r.row[1], 'p0', '4'], [r.normed[0], 'p1', f(r.normed[0])], [r.normed[1], 'p1', f(r.normed[1])]];
      el('line', { x1: 20, x2: 410, y1: base, y2: base, class: 'axis' }, s);
      bars.forEach(function (bar, i) {
        var x = 40 + i * 80 + (i > 1 ? 60 : 0), h = bar[0] * u;
        el('rect', { x: x, y: base - h, width: 50, height: h, class: bar[1] }, s);
        el('text', { x: x + 25, y: base - h - 5, 'text-anchor': 'middle' }, s, bar[2]);
      });
      var yr = base - r.rms * u;
      el('line', { x1: 30, x2: 190, y1: yr, y2: yr, class: 's2' }, s);
      el('text', { x: 196, y: yr + 4 }, s, 'RMS = \u221a' + r.mean_square + ' = ' + f(r.rms, 4));
      el('line', { x1: 270, x2: 410, y1: base - u, y2: base - u, class: 's0' }, s);
      el('text', { x: 410, y: base - u - 18, 'text-anchor': 'end', class: 'muted' }, s, 'RMS 1');
      el('text', { x: 105, y: base + 18, 'text-anchor': 'middle', class: 'muted' }, s, t('row') + ' [3, 4]');
      el('text', { x: 325, y: base + 18, 'text-anchor': 'middle', class: 'muted' }, s, t('rescaled') + ' = ' + t('row') + ' / RMS');
      return sum;
    });
    figure(panel, 'fig-activations', 'act', [], function (area) {
      var a = b.activations, sum = t('act_sum')(a);
      legend(area, [['l0', 'ReLU'], ['l1', 'SiLU'], ['l2', t('act_gated')]]);
      var s = svgBox(area, 420, 240, 'activations', t('act'), sum);
      lineChart(s, { w: 420, h: 240, xs: a.x, xlabel: 'a', series: [{ ys: a.relu, cls: 's0' }, { ys: a.silu, cls: 's1' }, { ys: a.gated, cls: 's2' }],
        points: [[1, a.silu[50], 'p1'], [-1, a.silu[30], 'p1'], [1, a.example.product[0], 'p2']] });
      return sum;
    });
  }

  // ------------------------------------------------------------------------------------------
  // 进阶 advanced

  function advanced(panel) {
    var a = DATA.advanced;
    figure(panel, 'fig-dials', 'dials', [{ key: 'dialPos', label: 'position', min: 0, max: a.dials.angles.length - 1, show: String }], function (area) {
      var p = state.dialPos, ang = a.dials.angles[p], sum = t('dials_sum')(p, ang, a.dials.inv_freq);
      var s = svgBox(area, 480, 170, 'dials', t('dials'), sum);
      ang.forEach(function (angle, i) {
        var ghosts = [];
        for (var k = Math.max(0, p - 6); k < p; ++k) ghosts.push(a.dials.angles[k][i]);
        dial(s, 60 + i * 120, 70, 50, angle, 'arrow', ghosts, t('pair') + ' ' + i);
        el('text', { x: 60 + i * 120, y: 155, 'text-anchor': 'middle', class: 'muted' }, s, '\u03c9 = ' + f(a.dials.inv_freq[i], 4));
      });
      return sum;
    });
    var dd = a.distance;
    figure(panel, 'fig-distance', 'distance', [{ key: 'distance', label: 'dist', min: 0, max: dd.distances.length - 1, show: String }], function (area) {
      var n = state.distance, sum = t('distance_sum')(n, dd.dot_from_0[n], dd.dot_from_10[n]);
      legend(area, [['l1', t('from0')], ['l3', t('from10')]]);
      var s = svgBox(area, 480, 230, 'distance', t('distance'), sum);
      lineChart(s, { w: 480, h: 230, xs: dd.distances, xlabel: t('dist'), series: [{ ys: dd.dot_from_0, cls: 's1' }, { ys: dd.dot_from_10, cls: 's3' }],
        marker: n, points: [[n, dd.dot_from_0[n], 'p1']] });
      return sum;
    });
    var sh = a.shift;
    figure(panel, 'fig-shift', 'shift', [{ key: 'shift', label: 'shift_label', min: 0, max: sh.shifts.length - 1, show: String }], function (area) {
      var k = state.shift, sum = t('shift_sum')(k, sh.rows[k], sh.rms[k], sh.layer[k]);
      legend(area, [['l0', t('input')], ['l1', t('rmsnorm')], ['l2', t('layernorm')]]);
      var s = svgBox(area, 480, 300, 'shift', t('shift'), sum);
      // The plane: x from -3 to 15, y the same scale; the circle of radius sqrt(2) is where RMSNorm lands.
      var ox = 90, oy = 200, u = 22;
      function P(v) { return [ox + v[0] * u, oy - v[1] * u]; }
      el('line', { x1: 10, x2: 470, y1: oy, y2: oy, class: 'axis' }, s);
      el('line', { x1: ox, x2: ox, y1: 10, y2: 290, class: 'axis' }, s);
      el('circle', { cx: ox, cy: oy, r: Math.SQRT2 * u, class: 's0' }, s);
      sh.rows.forEach(function (row, i) { var q = P(row); el('circle', { cx: q[0], cy: q[1], r: i === k ? 5 : 2.5, class: 'p0' }, s); });
      var r = P(sh.rms[k]), l = P(sh.layer[k]), x = P(sh.rows[k]);
      el('line', { x1: ox, y1: oy, x2: x[0], y2: x[1], class: 'ghost' }, s);
      el('line', { x1: ox, y1: oy, x2: r[0], y2: r[1], class: 'arrow' }, s);
      el('line', { x1: ox, y1: oy, x2: l[0], y2: l[1], class: 'arrow2' }, s);
      el('text', { x: x[0] + 8, y: x[1] + 4 }, s, '[' + fv(sh.rows[k], 0) + ']');
      el('text', { x: r[0] + 8, y: r[1] - 4 }, s, '[' + fv(sh.rms[k], 3) + ']');
      el('text', { x: l[0] - 8, y: l[1] - 8, 'text-anchor': 'end' }, s, '[' + fv(sh.layer[k], 0) + ']');
      return sum;
    });
  }

  // ------------------------------------------------------------------------------------------
  // 实战 practice

  function practice(panel) {
    var blk = DATA.practice.block, stages = blk.stages;
    figure(panel, 'fig-block', 'block', [
      { key: 'stage', label: 'stage', min: 0, max: stages.length - 1, show: function (i) { return t('stage_labels')[stages[i].key]; } },
      { key: 'token', label: 'token', min: 0, max: blk.config.tokens - 1, show: String }
    ], function (area) {
      var st = stages[state.stage], label = t('stage_labels')[st.key], row = st.values[state.token];
      var sum = t('block_sum')(st, label, state.token, row);
      var s = svgBox(area, 1100, 225, 'block-flow', t('block'), sum + ' ' + stages.map(function (x) { return t('stage_labels')[x.key] + ' ' + x.shape; }).join(' \u2192 '));
      arrowMarker(s);
      var cols = 8, bw = 118, bh = 50, gx = 18, rowsY = [10, 165];
      stages.forEach(function (x, i) {
        var r = Math.floor(i / cols), c = i % cols;
        if (r === 1) c = cols - 1 - c;  // the second row runs back, right to left
        var bx = 10 + c * (bw + gx), by = rowsY[r];
        var g = el('g', { class: 'stage', 'data-stage': x.key, tabindex: -1 }, s);
        el('rect', { x: bx, y: by, width: bw, height: bh, class: 'box' + (i === state.stage ? ' sel' : '') }, g);
        el('text', { x: bx + bw / 2, y: by + 21, 'text-anchor': 'middle' }, g, t('stage_labels')[x.key]);
        el('text', { x: bx + bw / 2, y: by + 39, 'text-anchor': 'middle', class: 'muted' }, g, x.shape);
        g.addEventListener('click', function () { var inp = document.getElementById('fig-block-stage'); inp.value = i; inp.dispatchEvent(new Event('input')); });
        if (i + 1 < stages.length) {
          var nr = Math.floor((i + 1) / cols);
          if (nr !== r) el('path', { d: 'M' + (bx + bw / 2) + ',' + (by + bh) + ' L' + (bx + bw / 2) + ',' + (rowsY[1] - 2), class: 'flow' }, s);
          else if (r === 0) el('line', { x1: bx + bw, y1: by + bh / 2, x2: bx + bw + gx - 2, y2: by + bh / 2, class: 'flow' }, s);
          else el('line', { x1: bx, y1: by + bh / 2, x2: bx - gx + 2, y2: by + bh / 2, class: 'flow' }, s);
        }
      });
      // Residual bypasses: X -> R and R -> output.
      el('text', { x: 10, y: 120, class: 'muted' }, s, '+X: R = X + attention;  +R: Y = R + FFN   (B = 1, T = ' + blk.config.tokens + ')');
      // The heatmap of the chosen stage.
      var vals = st.values, cols2 = vals[0].length, cw = Math.min(32, 1080 / cols2), ch = 22;
      var maxAbs = 0;
      vals.forEach(function (r) { r.forEach(function (v) { maxAbs = Math.max(maxAbs, Math.abs(v)); }); });
      var hm = svgBox(area, 1100, vals.length * ch + 30, 'heatmap', t('heatmap'), label + ' ' + st.shape + ': ' + vals.map(function (r) { return '[' + fv(r, 3) + ']'; }).join('; '));
      vals.forEach(function (r, ti) {
        el('text', { x: 4, y: 16 + ti * ch + 14, class: ti === state.token ? '' : 'muted' }, hm, 't' + ti);
        r.forEach(function (v, ci) {
          var cell = el('rect', { x: 30 + ci * cw, y: 16 + ti * ch, width: cw - 1, height: ch - 1, fill: heat(v / (maxAbs || 1)), stroke: ti === state.token ? '#1d2433' : 'none' }, hm);
          el('title', {}, cell, st.key + '[' + ti + '][' + ci + '] = ' + f(v, 6));
          if (cw >= 30) el('text', { x: 30 + ci * cw + cw / 2, y: 16 + ti * ch + 15, class: 'cell-text' }, hm, f(v, 2));
        });
      });
      el('text', { x: 30, y: 11, class: 'muted' }, hm, label + '  ' + st.shape + '   max |value| = ' + f(maxAbs, 3));
      return sum;
    }, true);

    figure(panel, 'fig-attention', 'attention', [], function (area) {
      var att = blk.attention, n = att[0].length, sum = t('attention_sum')(att.length);
      var s = svgBox(area, 1100, 200, 'attention', t('attention'), sum + ' ' + att.map(function (h, i) { return t('head') + ' ' + i + ': ' + h.map(function (r) { return '[' + fv(r, 3) + ']'; }).join(' '); }).join('; '));
      var cell = 38;
      att.forEach(function (w, h) {
        var x0 = 40 + h * (n * cell + 90);
        el('text', { x: x0 + n * cell / 2, y: 18, 'text-anchor': 'middle' }, s, t('head') + ' ' + h);
        w.forEach(function (r, q) {
          r.forEach(function (v, k) {
            var rc = el('rect', { x: x0 + k * cell, y: 28 + q * cell, width: cell - 2, height: cell - 2, fill: heat(v), stroke: k > q ? '#e6e9ef' : 'none' }, s);
            el('title', {}, rc, 'head ' + h + ' query ' + q + ' key ' + k + ': ' + f(v, 6));
            el('text', { x: x0 + k * cell + cell / 2 - 1, y: 28 + q * cell + cell / 2 + 3, class: 'cell-text' }, s, k > q ? '\u00b7' : f(v, 2));
          });
        });
      });
      return sum;
    }, true);

    var fig = el('figure', { class: 'fig wide', id: 'fig-check' }, panel);
    el('h3', {}, fig, t('check'));
    var check = DATA.practice.check;
    if (!check) { el('p', { class: 'note summary' }, fig, t('check_none')); return; }
    var table = el('table', { id: 'check-table' }, fig);
    var head = el('tr', {}, el('thead', {}, table));
    ['exercise', 'part', 'verdict', 'points', 'message', 'reference'].forEach(function (k) { el('th', { scope: 'col' }, head, t(k)); });
    var body = el('tbody', {}, table), done = 0, score = 0, max = 0;
    check.forEach(function (ex) {
      done += ex.status === 'done' ? 1 : 0; score += ex.score; max += ex.max_score;
      ex.parts.forEach(function (p, i) {
        var tr = el('tr', {}, body);
        el('td', {}, tr, i === 0 ? (state.lang === 'zh' ? ex.title_zh : ex.title_en) + ' (' + ex.id + ')' : '');
        el('td', {}, tr, p.name);
        el('td', { class: p.verdict === 'correct' ? 'v-correct' : 'v-other' }, tr, p.verdict);
        el('td', { class: 'num' }, tr, p.score + '/' + p.max_score);
        el('td', {}, tr, p.message);
        el('td', { class: 'num' }, tr, p.reference === undefined ? '' : p.reference);
      });
    });
    el('p', { class: 'summary' }, fig, t('check_sum')(done, check.length, +score.toFixed(2), +max.toFixed(2)));
  }

  // ------------------------------------------------------------------------------------------
  // 优化 optimisation

  function optimisation(panel) {
    var o = DATA.optimisation, kv = o.kv_cache;
    var presetNames = kv.presets.map(function (p) { return p.name; });
    var kvFig;
    function kvControls() {
      var p = kv.presets[state.preset];
      clampState('group', p.kv_heads.length - 1);
      return [
        { key: 'preset', label: 'model', min: 0, max: kv.presets.length - 1, show: function (i) { return presetNames[i]; } },
        { key: 'seq', label: 'sequence', min: 0, max: kv.sequences.length - 1, show: function (i) { return String(kv.sequences[i]); } },
        { key: 'group', label: 'groups', min: 0, max: Math.max.apply(null, kv.presets.map(function (q) { return q.kv_heads.length - 1; })),
          show: function (i) { var q = kv.presets[state.preset]; return String(q.kv_heads[Math.min(i, q.kv_heads.length - 1)]); } }
      ];
    }
    kvFig = figure(panel, 'fig-kv', 'kv', kvControls(), function (area) {
      var p = kv.presets[state.preset], gi = Math.min(state.group, p.kv_heads.length - 1), row = p.bytes[state.seq];
      var mha = row[0], gqa = row[gi], mqa = row[row.length - 1], g = p.kv_heads[gi];
      var sum = t('kv_sum')(p, kv.sequences[state.seq], g, bytes(mha), bytes(gqa), bytes(mqa));
      var s = svgBox(area, 480, 200, 'kv-bars', t('kv'), sum);
      [['MHA (' + p.query_heads + ')', mha, 'p0'], ['GQA (' + g + ')', gqa, 'p1'], ['MQA (1)', mqa, 'p2']].forEach(function (b, i) {
        var w = Math.max(2, 300 * b[1] / mha), y = 20 + i * 55;
        el('text', { x: 90, y: y + 24, 'text-anchor': 'end' }, s, b[0]);
        el('rect', { x: 98, y: y, width: w, height: 36, class: b[2] }, s);
        el('text', { x: 104 + w, y: y + 24 }, s, bytes(b[1]));
      });
      return sum;
    });
    // The group slider's output shows the KV heads of the chosen model.
    kvFig.querySelector('#fig-kv-preset').addEventListener('input', function () {
      var q = kv.presets[state.preset], gs = kvFig.querySelector('#fig-kv-group');
      if (state.group > q.kv_heads.length - 1) { state.group = q.kv_heads.length - 1; gs.value = state.group; }
      gs.max = q.kv_heads.length - 1;
      gs.nextSibling.textContent = String(q.kv_heads[state.group]);
      gs.dispatchEvent(new Event('input'));
    });

    var sc = o.scaling;
    figure(panel, 'fig-scaling', 'scaling', [{ key: 'factor', label: 'factor', min: 0, max: sc.factors.length - 1, show: function (i) { return String(sc.factors[i]); } }], function (area) {
      var k = state.factor, lin = sc.linear[k], ntk = sc.ntk[k], last = sc.base.length - 1;
      var sum = t('scaling_sum')(sc.factors[k], sc.base[0], lin[0], ntk[0], sc.base[last], lin[last], ntk[last], sc.ntk_base[k]);
      legend(area, [['l0', t('none')], ['l2', t('linear')], ['l1', t('ntk')]]);
      var s = svgBox(area, 480, 250, 'scaling', t('scaling'), sum);
      var xs = sc.base.map(function (_, i) { return i; });
      lineChart(s, { w: 480, h: 250, xs: xs, xlabel: t('pair') + ' i', log: true, ymin: Math.log10(sc.base[last] / 40), ymax: 0.2,
        series: [{ ys: sc.base, cls: 's0' }, { ys: lin, cls: 's2' }, { ys: ntk, cls: 's1' }] });
      return sum;
    });

    var bu = o.budget;
    figure(panel, 'fig-budget', 'budget', [{ key: 'budget', label: 'width', min: 0, max: bu.length - 1, show: function (i) { return String(bu[i].hidden); } }], function (area) {
      var b = bu[state.budget], sum = t('budget_sum')(b), names = t('budget_rows');
      var s = svgBox(area, 480, 230, 'budget-bars', t('budget'), sum);
      var rows = [[names[0] + ' = ' + b.relu_hidden, b.relu, 'p0'], [names[1] + ' = ' + b.relu_hidden, b.swiglu_same, 'p2'],
                  [names[2] + ' = ' + b.matched_hidden, b.swiglu_matched, 'p1'], [names[3] + ' = ' + b.llama_hidden, b.swiglu_llama, 'p3']];
      var top = Math.max.apply(null, rows.map(function (r) { return r[1]; }));
      rows.forEach(function (r, i) {
        var w = Math.max(2, 230 * r[1] / top), y = 10 + i * 54;
        el('text', { x: 4, y: y + 12 }, s, r[0]);
        el('rect', { x: 4, y: y + 18, width: w, height: 24, class: r[2] }, s);
        el('text', { x: 10 + w, y: y + 35 }, s, r[1].toLocaleString('en-US'));
      });
      return sum;
    });
  }

  // ------------------------------------------------------------------------------------------
  // The page: header, tabs (buttons with tab roles, arrow keys move), one panel per mode.

  function readHash() {
    var m = /mode=(\w+)/.exec(location.hash), l = /lang=(en|zh)/.exec(location.hash);
    if (m && MODES.indexOf(m[1]) >= 0) state.mode = m[1];
    if (l) state.lang = l[1];
  }

  function render() {
    var app = document.getElementById('app');
    app.textContent = '';
    document.documentElement.lang = state.lang === 'zh' ? 'zh-CN' : 'en';
    document.title = t('title');
    var header = el('header', {}, app);
    el('h1', {}, header, t('title'));
    var lb = el('button', { type: 'button', class: 'lang-button', id: 'lang-button', 'aria-label': t('lang_label') }, header, t('lang_button'));
    lb.addEventListener('click', function () { state.lang = state.lang === 'zh' ? 'en' : 'zh'; render(); document.getElementById('lang-button').focus(); });
    el('p', { class: 'intro' }, app, t('intro'));
    var list = el('div', { role: 'tablist', 'aria-label': t('modes_label') }, app);
    var tabs = MODES.map(function (m) {
      var b = el('button', { type: 'button', role: 'tab', id: 'tab-' + m, 'aria-controls': 'panel-' + m,
        'aria-selected': String(m === state.mode), tabindex: m === state.mode ? 0 : -1 }, list, t(m));
      b.addEventListener('click', function () { select(m); });
      b.addEventListener('keydown', function (ev) {
        var i = MODES.indexOf(m), next = null;
        if (ev.key === 'ArrowRight') next = MODES[(i + 1) % MODES.length];
        if (ev.key === 'ArrowLeft') next = MODES[(i + MODES.length - 1) % MODES.length];
        if (ev.key === 'Home') next = MODES[0];
        if (ev.key === 'End') next = MODES[MODES.length - 1];
        if (next) { ev.preventDefault(); select(next); document.getElementById('tab-' + next).focus(); }
      });
      return b;
    });
    var builders = { basics: basics, advanced: advanced, practice: practice, optimisation: optimisation };
    MODES.forEach(function (m) {
      var panel = el('section', { role: 'tabpanel', id: 'panel-' + m, 'aria-labelledby': 'tab-' + m, tabindex: 0 }, app);
      if (m !== state.mode) panel.hidden = true;
      el('p', { class: 'mode-summary' }, panel, t(m + '_summary'));
      builders[m](el('div', { class: 'grid' }, panel));
    });
    function select(m) {
      state.mode = m;
      tabs.forEach(function (b, i) {
        var on = MODES[i] === m;
        b.setAttribute('aria-selected', String(on));
        b.tabIndex = on ? 0 : -1;
        document.getElementById('panel-' + MODES[i]).hidden = !on;
      });
      if (history.replaceState) history.replaceState(null, '', '#mode=' + m);
    }
  }

  readHash();
  render();
  document.body.setAttribute('data-ready', '1');
})();
