// SPDX-License-Identifier: GPL-2.0
// Open a `kprof compare --html` page in headless Chromium (playwright-core) with every network
// request refused, and print what it shows, one "key=value" line per observation; the checks
// are made by t5010-compare-html.sh.
//
// usage: node compare-html-browser.js PAGE.html
'use strict';

const { put, run } = require('./browser-lib.js');

const [pagePath] = process.argv.slice(2);

// The keys of the LKP table in the order shown, and the numbers of one column.
async function table(page, col) {
	return page.evaluate((c) => {
		const rows = [...document.querySelectorAll('#lkp tbody tr')];
		return {
			keys: rows.map((r) => r.cells[r.cells.length - 1].textContent).join(' '),
			values: rows.map((r) => r.cells[c].dataset.v).join(' '),
		};
	}, col);
}

run(async (page) => {
	const remote = [];
	// offline: anything but the file itself and data: URLs is refused and recorded
	await page.route('**/*', (route) => {
		const u = route.request().url();
		if (u.startsWith('file:') || u.startsWith('data:'))
			return route.continue();
		remote.push(u);
		return route.abort();
	});
	await page.goto('file://' + pagePath);

	put('title', await page.title());
	const heads = await page.$$eval('#lkp thead th', (t) => t.map((h) => h.textContent));
	put('heads', heads.join('|'));
	let t = await table(page, 0);
	put('rows', t.keys);
	put('plots', await page.$$eval('.plots figure svg', (s) => s.length));
	put('pp.rows', await page.$$eval('#perf-profile tbody tr', (r) =>
		r.map((x) => x.cells[x.cells.length - 1].textContent + ':' +
		      x.cells[2].textContent).join(' ')));

	// sort: a click on "%change <new>" sorts descending, a second ascending
	const col = heads.findIndex((h) => h.startsWith('%change'));
	await page.click(`#lkp thead th:nth-child(${col + 1})`);
	t = await table(page, col);
	put('sort1.values', t.values);
	put('sort1.keys', t.keys);
	await page.click(`#lkp thead th:nth-child(${col + 1})`);
	t = await table(page, col);
	put('sort2.values', t.values);
	put('sort2.aria', await page.$eval(`#lkp thead th:nth-child(${col + 1})`,
		(h) => h.getAttribute('aria-sort')));

	// the differential flame graph in its frame: hover shows a frame's details
	const frame = page.frames().find((f) => f.url().startsWith('data:image/svg+xml'));
	put('flame.frame', frame ? 'yes' : 'no');
	if (frame) {
		put('flame.frames', await frame.$$eval('#frames > g', (g) => g.length));
		put('flame.before', await frame.textContent('#details'));
		await frame.hover('#frames > g:has(title:text-matches("^spin \\\\(")) rect');
		put('flame.hover', await frame.textContent('#details'));
		put('flame.spin_fill', await frame.$eval(
			'#frames > g:has(title:text-matches("^spin \\\\(")) rect',
			(r) => r.getAttribute('fill')));
	}
	put('remote', remote.length ? remote.join(' ') : 'none');
});
