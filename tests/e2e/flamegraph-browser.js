// SPDX-License-Identifier: GPL-2.0
// Drive a kprof flame graph SVG in headless Chromium (playwright-core) and record what the page
// shows after each interaction, one "key=value" line per observation on stdout; the checks are
// made by t3202-flamegraph-browser.sh.
//
// usage: node flamegraph-browser.js SVG-PATH USER-DATA-DIR [DIFF-SVG-PATH]
'use strict';

const { chromium } = require('playwright-core');

const [svgPath, userDataDir, diffPath] = process.argv.slice(2);

function put(key, value) {
	process.stdout.write(key + '=' + value + '\n');
}

// Geometry and state of one frame, found by the first line of its tooltip.
async function frame(page, name) {
	return page.evaluate((n) => {
		for (const g of document.querySelectorAll('#frames > g')) {
			const title = g.querySelector('title').textContent;
			if (!title.startsWith(n + ' ('))
				continue;
			const r = g.querySelector('rect');
			const t = g.querySelector('text');
			return {
				x: r.getAttribute('x'), width: r.getAttribute('width'),
				fill: r.getAttribute('fill'),
				hidden: g.classList.contains('hide'),
				parent: g.classList.contains('parent'),
				label: t ? t.textContent : '',
			};
		}
		return null;
	}, name);
}

async function observe(page, phase) {
	for (const name of ['main', 'work', 'compute', 'io_wait', 'idle']) {
		const f = await frame(page, name);
		put(`${phase}.${name}`, f ? `${f.x},${f.width},${f.fill},hidden=${f.hidden},` +
		    `parent=${f.parent},label=${f.label}` : 'missing');
	}
	put(`${phase}.matched`, await page.textContent('#matched'));
	put(`${phase}.magenta`, await page.evaluate(() =>
		document.querySelectorAll('#frames rect[fill="rgb(230,0,230)"]').length));
	put(`${phase}.query`, new URL(page.url()).search);
	put(`${phase}.unzoom_hidden`, await page.evaluate(() =>
		document.getElementById('unzoom').classList.contains('hide')));
}

async function main() {
	const context = await chromium.launchPersistentContext(userDataDir, {
		executablePath: '/usr/bin/chromium',
		headless: true,
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
		       '--no-first-run', '--disable-background-networking',
		       '--disable-component-update', '--disable-sync'],
		timeout: 60000,
	});
	try {
		const page = context.pages()[0] || await context.newPage();
		const errors = [];
		page.on('pageerror', (e) => errors.push(e.message));
		page.setDefaultTimeout(15000);

		await page.goto('file://' + svgPath);
		put('frames', await page.evaluate(() =>
			document.querySelectorAll('#frames > g').length));
		await observe(page, 'load');

		// hover: the details line
		await page.hover('#frames > g:has(title:text-matches("^compute \\\\(")) rect');
		put('hover.details', await page.textContent('#details'));

		// search: the prompt answers a regular expression
		page.once('dialog', (d) => d.accept('^(comp|io_)'));
		await page.click('#search');
		await observe(page, 'search');

		// click-zoom into "work"
		await page.click('#frames > g:has(title:text-matches("^work \\\\(")) rect');
		await observe(page, 'zoom');

		// reload with the state kept in the URL
		await page.reload();
		await observe(page, 'reload');

		// reset zoom, then clear the search with Escape
		await page.click('#unzoom');
		await observe(page, 'reset');
		await page.keyboard.press('Escape');
		await observe(page, 'escape');
		// a differential graph: the same script, tooltips with both sides
		if (diffPath) {
			await page.goto('file://' + diffPath);
			await page.hover('#frames > g:has(title:text-matches("^work \\\\(")) rect');
			put('diff.details', await page.textContent('#details'));
			const f = await frame(page, 'work');
			put('diff.work', f ? f.fill : 'missing');
		}
		put('errors', errors.length ? errors.join(' | ') : 'none');
	} finally {
		await context.close();
	}
}

main().catch((e) => {
	process.stderr.write('browser test failed: ' + e.stack + '\n');
	process.exit(1);
});
