// SPDX-License-Identifier: GPL-2.0
// Load a speedscope JSON file into speedscope (the npm package's offline build) in headless
// Chromium (playwright-core), through its file input as a user would, and print what it
// shows, one "key=value" line per observation; t3301-export-speedscope.sh makes the checks.
//
// usage: node speedscope-browser.js SPEEDSCOPE-INDEX-HTML PROFILE-JSON
'use strict';

const { chromium } = require('playwright-core');

const [indexHtml, profile] = process.argv.slice(2);

function put(key, value) {
	process.stdout.write(key + '=' + value + '\n');
}

async function main() {
	const browser = await chromium.launch({
		executablePath: '/usr/bin/chromium',
		args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
		       '--disable-component-update', '--no-first-run'],
		timeout: 60000,
	});
	try {
		const page = await browser.newPage();
		const errors = [];
		page.on('pageerror', (e) => errors.push(e.message));
		page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
		page.setDefaultTimeout(30000);

		await page.goto('file://' + indexHtml);
		await page.setInputFiles('input[type=file]', profile);
		await page.getByText('Sandwich').waitFor();
		await page.getByText('Sandwich').click();
		await page.getByText('Symbol Name').waitFor();
		// the sandwich table: Total, Self, Symbol Name per row, heaviest self first
		const cells = await page.evaluate(() => {
			const out = [];
			for (const row of document.querySelectorAll('tr')) {
				const td = [...row.querySelectorAll('td')].map((c) => c.innerText.trim());
				if (td.length >= 3)
					out.push(td);
			}
			return out;
		});
		put('rows', cells.length);
		if (cells.length) {
			put('top.total', cells[0][0]);
			put('top.self', cells[0][1]);
			put('top.name', cells[0][2]);
		}
		put('title', await page.title());
		put('errors', errors.length ? errors.join(' | ') : 'none');
	} finally {
		await browser.close();
	}
}

main().catch((e) => {
	put('errors', 'script: ' + e.message);
	process.exit(1);
});
