// SPDX-License-Identifier: GPL-2.0
// browser-lib.js - shared by the export and report browser tests (speedscope-browser.js,
// compare-html-browser.js): Debian's chromium, headless, through playwright-core; a page whose
// script errors are collected; observations printed as "key=value" lines.
'use strict';

const { chromium } = require('playwright-core');

function put(key, value) {
	process.stdout.write(key + '=' + value + '\n');
}

// Run fn(page, errors) in a fresh headless chromium, then print the errors seen ("none").
async function withPage(fn) {
	const browser = await chromium.launch({
		executablePath: '/usr/bin/chromium',
		args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
		       '--disable-component-update', '--no-first-run'],
		timeout: 60000,
	});
	try {
		const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
		const errors = [];
		page.on('pageerror', (e) => errors.push(e.message));
		page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
		page.setDefaultTimeout(30000);
		await fn(page);
		put('errors', errors.length ? errors.join(' | ') : 'none');
	} finally {
		await browser.close();
	}
}

function run(fn) {
	withPage(fn).catch((e) => {
		put('errors', 'script: ' + e.message);
		process.exit(1);
	});
}

module.exports = { put, run };
