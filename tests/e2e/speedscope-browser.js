// SPDX-License-Identifier: GPL-2.0
// Load a speedscope JSON file into speedscope (the npm package's offline build) in headless
// Chromium (playwright-core), through its file input as a user would, and print what it
// shows, one "key=value" line per observation; t3301-export-speedscope.sh makes the checks.
//
// usage: node speedscope-browser.js SPEEDSCOPE-INDEX-HTML PROFILE-JSON
'use strict';

const { put, run } = require('./browser-lib.js');

const [indexHtml, profile] = process.argv.slice(2);

run(async (page) => {
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
});
