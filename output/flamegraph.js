// SPDX-License-Identifier: GPL-2.0
// flamegraph.js - the interactive part of kprof's flame graph SVGs (embedded verbatim by
// output/flamegraph-js.c; it must never contain the CDATA terminator).
//
// Every frame is a <g fg:x fg:w> in #frames holding <title>, <rect> and maybe <text>; fg:x and
// fg:w are the frame's offset and width in counts, the layout parameters are attributes of
// #frames. Hover shows the title in #details; a click zooms into a frame (its ancestors stay,
// faded; everything outside is hidden); "Reset Zoom", Escape or a click on the root undoes it.
// "Search" (or Ctrl-F) asks for a regular expression and paints matching frames; #matched shows
// the share of the total they cover (nested matches counted once). Zoom (x = fg:x, y = depth)
// and search (s, and i for ignore-case) are kept in the URL query, and restored on load.
// A flame graph taller than the window opens as an icicle graph (root at the top), so the first
// screen shows the widest frames instead of the empty top of a tall picture.
'use strict';

var fg = {
	frames: [],		// { g, rect, text, x, w, depth, name, fill, px, pw }
	cfg: null,
	zoomed: null,
	search: null,
	ignorecase: false,
};

function fg_num(el, name) {
	return parseFloat(el.getAttribute('fg:' + name));
}

// The frame name is the first line of the title, without the " (counts…)" part.
function fg_name(title) {
	var line = title.split('\n')[0];
	var i = line.lastIndexOf(' (');
	return i >= 0 ? line.substring(0, i) : line;
}

function fg_depth(cfg, y) {
	if (cfg.inverted)
		return Math.round((y - cfg.ypad1) / cfg.fh);
	return Math.round((cfg.height - cfg.ypad2 - y) / cfg.fh) - 1;
}

function init(evt) {
	var root = document.getElementById('frames');
	var cfg = {};
	['total', 'xpad', 'width', 'fh', 'ypad1', 'ypad2', 'height', 'fontsize',
	 'fontwidth'].forEach(function (k) { cfg[k] = fg_num(root, k); });
	cfg.inverted = root.getAttribute('fg:inverted') === '1';
	cfg.nametype = root.getAttribute('fg:nametype');
	fg.cfg = cfg;

	var gs = root.children;
	for (var i = 0; i < gs.length; i++) {
		var g = gs[i];
		var rect = g.querySelector('rect');
		var title = g.querySelector('title').textContent;
		fg.frames.push({
			g: g, rect: rect, text: g.querySelector('text'),
			x: fg_num(g, 'x'), w: fg_num(g, 'w'), xattr: g.getAttribute('fg:x'),
			depth: fg_depth(cfg, parseFloat(rect.getAttribute('y'))),
			name: fg_name(title), title: title, fill: rect.getAttribute('fill'),
			px: parseFloat(rect.getAttribute('x')),
			pw: parseFloat(rect.getAttribute('width')),
		});
		g.fgIndex = i;
	}

	if (!cfg.inverted && cfg.height > window.innerHeight)
		fg_to_icicle(root);

	root.addEventListener('mouseover', function (e) {
		var f = fg_frame_of(e.target);
		if (f)
			fg_details(cfg.nametype + ' ' + f.title.split('\n')[0]);
	});
	root.addEventListener('mouseout', function () { fg_details(' '); });
	root.addEventListener('click', function (e) {
		var f = fg_frame_of(e.target);
		if (!f)
			return;
		if (f.depth === 0)
			fg_unzoom();
		else
			fg_zoom(f);
		fg_save_state();
	});
	document.getElementById('unzoom').addEventListener('click', function () {
		fg_unzoom();
		fg_save_state();
	});
	document.getElementById('search').addEventListener('click', fg_search_prompt);
	document.getElementById('ignorecase').addEventListener('click', fg_toggle_ignorecase);
	window.addEventListener('keydown', function (e) {
		if (e.key === 'F3' || ((e.ctrlKey || e.metaKey) && e.key === 'f')) {
			e.preventDefault();
			fg_search_prompt();
		} else if (e.ctrlKey && e.key === 'i') {
			e.preventDefault();
			fg_toggle_ignorecase();
		} else if (e.key === 'Escape') {
			fg_unzoom();
			fg_search(null);
			fg_save_state();
		}
	});
	fg_restore_state();
}

// Root at the top: each frame moves to its depth counted from ypad1.
function fg_to_icicle(root) {
	var cfg = fg.cfg;
	cfg.inverted = true;
	root.setAttribute('fg:inverted', '1');
	fg.frames.forEach(function (f) {
		var y = cfg.ypad1 + f.depth * cfg.fh;
		f.rect.setAttribute('y', y.toFixed(0));
		if (f.text)
			f.text.setAttribute('y', (y + cfg.fh / 2 + cfg.fontsize / 3).toFixed(1));
	});
	var title = document.getElementById('title');
	if (title.textContent === 'Flame Graph')
		title.textContent = 'Icicle Graph';
	title.textContent += ' (root at the top: taller than the window)';
}

function fg_toggle_ignorecase() {
	fg.ignorecase = !fg.ignorecase;
	fg_mark('ignorecase', fg.ignorecase);
	if (fg.search !== null)
		fg_search(fg.search);
	fg_save_state();
}

function fg_frame_of(el) {
	while (el && el.fgIndex === undefined)
		el = el.parentNode;
	return el ? fg.frames[el.fgIndex] : null;
}

function fg_details(s) {
	document.getElementById('details').textContent = s;
}

function fg_mark(id, on) {
	document.getElementById(id).classList.toggle('show', on);
}

// Place a frame at px/pw pixels and fit its label, truncated with ".." as flamegraph.pl does.
function fg_place(f, px, pw) {
	var cfg = fg.cfg;
	var chars = Math.floor(pw / (cfg.fontsize * cfg.fontwidth));
	var label = '';
	f.rect.setAttribute('x', px.toFixed(1));
	f.rect.setAttribute('width', pw.toFixed(1));
	if (chars >= 3) {
		var name = Array.from(f.name);
		label = name.length <= chars ? f.name : name.slice(0, chars - 2).join('') + '..';
	}
	if (!f.text && label === '')
		return;
	if (!f.text) {
		f.text = document.createElementNS('http://www.w3.org/2000/svg', 'text');
		f.text.setAttribute('y', (parseFloat(f.rect.getAttribute('y')) + cfg.fh / 2 +
					  cfg.fontsize / 3).toFixed(1));
		f.g.appendChild(f.text);
	}
	f.text.setAttribute('x', (px + 3).toFixed(1));
	f.text.textContent = label;
}

function fg_zoom(z) {
	var cfg = fg.cfg;
	var eps = cfg.total * 1e-9;
	var span = cfg.width - 2 * cfg.xpad;
	fg.zoomed = z;
	document.getElementById('unzoom').classList.remove('hide');
	fg.frames.forEach(function (f) {
		var inside = f.x >= z.x - eps && f.x + f.w <= z.x + z.w + eps;
		var above = f.x <= z.x + eps && f.x + f.w >= z.x + z.w - eps;
		f.g.classList.remove('hide', 'parent');
		if (f.depth < z.depth && above) {
			f.g.classList.add('parent');
			fg_place(f, cfg.xpad, span);
		} else if (f.depth >= z.depth && inside) {
			fg_place(f, cfg.xpad + (f.x - z.x) * span / z.w, f.w * span / z.w);
		} else {
			f.g.classList.add('hide');
		}
	});
}

function fg_unzoom() {
	fg.zoomed = null;
	document.getElementById('unzoom').classList.add('hide');
	fg.frames.forEach(function (f) {
		f.g.classList.remove('hide', 'parent');
		fg_place(f, f.px, f.pw);
	});
}

function fg_search_prompt() {
	if (fg.search !== null) {
		fg_search(null);
	} else {
		var term = prompt('Enter a search term (regexp allowed, eg: ^ext4_)' +
				  (fg.ignorecase ? ', ignoring case' : '') +
				  '\nPress Ctrl-i to toggle case sensitivity', '');
		if (term)
			fg_search(term);
	}
	fg_save_state();
}

// Paint frames whose name matches @term (a regular expression); null clears the search.
function fg_search(term) {
	var re = null;
	if (term !== null) {
		try {
			re = new RegExp(term, fg.ignorecase ? 'i' : '');
		} catch (e) {
			fg_details('invalid regular expression: ' + term);
			term = null;
		}
	}
	fg.search = term;
	fg_mark('search', term !== null);
	document.getElementById('search').textContent = term !== null ? 'Reset Search' : 'Search';
	var spans = [];
	fg.frames.forEach(function (f) {
		var hit = re !== null && re.test(f.name);
		f.rect.setAttribute('fill', hit ? 'rgb(230,0,230)' : f.fill);
		f.g.classList.toggle('match', hit);
		if (hit)
			spans.push([f.x, f.x + f.w]);
	});
	// nested matches cover the same counts: merge overlapping spans before summing
	spans.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });
	var covered = 0, end = -Infinity;
	spans.forEach(function (s) {
		if (s[0] >= end) {
			covered += s[1] - s[0];
			end = s[1];
		} else if (s[1] > end) {
			covered += s[1] - end;
			end = s[1];
		}
	});
	var matched = document.getElementById('matched');
	matched.textContent = term === null ? ' ' :
		'Matched: ' + (100 * covered / fg.cfg.total).toFixed(2) + '%';
}

function fg_save_state() {
	var p = new URLSearchParams();
	if (fg.zoomed) {
		p.set('x', fg.zoomed.xattr);
		p.set('y', String(fg.zoomed.depth));
	}
	if (fg.search !== null)
		p.set('s', fg.search);
	if (fg.ignorecase)
		p.set('i', '1');
	var q = p.toString();
	try {
		var url = location.pathname + (q ? '?' + q : '') + location.hash;
		history.replaceState(null, '', url);
	} catch (e) {
		// some viewers forbid changing the URL of a local file: the graph still works
	}
}

function fg_restore_state() {
	var p = new URLSearchParams(location.search);
	fg.ignorecase = p.get('i') === '1';
	fg_mark('ignorecase', fg.ignorecase);
	if (p.has('x') && p.has('y')) {
		var x = p.get('x'), y = parseInt(p.get('y'), 10);
		var z = fg.frames.find(function (f) { return f.xattr === x && f.depth === y; });
		if (z && z.depth > 0)
			fg_zoom(z);
	}
	if (p.has('s') && p.get('s') !== '')
		fg_search(p.get('s'));
}
