// SPDX-License-Identifier: GPL-2.0
// Drive a kprof flame graph SVG in headless Chromium (playwright-core) and record what the page
// shows after each interaction, one "key=value" line per observation on stdout; the checks are
// made by t3202-flamegraph-browser.sh.
//
// usage: node flamegraph-browser.js SVG-PATH USER-DATA-DIR [DIFF-SVG-PATH [TALL-SVG-PATH
//        SHOT-DIR]]
// With TALL-SVG-PATH (a graph taller than the window) and SHOT-DIR, screenshots of the first
// screen of that graph and of the diff graph's legend are saved there and their pixels counted.
'use strict';

const fs = require('fs');
const zlib = require('zlib');
const { chromium } = require('playwright-core');

const [svgPath, userDataDir, diffPath, tallPath, shotDir] = process.argv.slice(2);

// The RGB pixels of an 8-bit, non-interlaced RGB or RGBA PNG (what Chromium writes).
function png_pixels(buf) {
	let pos = 8, width = 0, height = 0, type = 0;
	const idat = [];
	while (pos < buf.length) {
		const len = buf.readUInt32BE(pos), kind = buf.toString('latin1', pos + 4, pos + 8);
		const data = buf.subarray(pos + 8, pos + 8 + len);
		if (kind === 'IHDR') {
			width = data.readUInt32BE(0);
			height = data.readUInt32BE(4);
			if (data[8] !== 8 || (data[9] !== 2 && data[9] !== 6) || data[12] !== 0)
				throw new Error('unsupported PNG');
			type = data[9];
		} else if (kind === 'IDAT') {
			idat.push(data);
		}
		pos += 12 + len;
	}
	const bpp = type === 6 ? 4 : 3, stride = width * bpp;
	const raw = zlib.inflateSync(Buffer.concat(idat));
	const out = Buffer.alloc(height * stride);
	for (let y = 0; y < height; y++) {
		const f = raw[y * (stride + 1)], line = raw.subarray(y * (stride + 1) + 1);
		for (let x = 0; x < stride; x++) {
			const a = x >= bpp ? out[y * stride + x - bpp] : 0;
			const b = y ? out[(y - 1) * stride + x] : 0;
			const c = x >= bpp && y ? out[(y - 1) * stride + x - bpp] : 0;
			let v = line[x];
			if (f === 1) v += a;
			else if (f === 2) v += b;
			else if (f === 3) v += (a + b) >> 1;
			else if (f === 4) {
				const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b),
					pc = Math.abs(p - c);
				v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
			}
			out[y * stride + x] = v & 255;
		}
	}
	return { width, height, bpp, data: out };
}

// How many pixels satisfy @pred(r, g, b).
function count_pixels(png, pred) {
	let n = 0;
	for (let i = 0; i < png.data.length; i += png.bpp)
		if (pred(png.data[i], png.data[i + 1], png.data[i + 2]))
			n++;
	return n;
}

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
		if (tallPath && shotDir) {
			// the first screen of a graph taller than the window: frames, not blank space
			await page.setViewportSize({ width: 1280, height: 720 });
			await page.goto('file://' + tallPath);
			const shot = await page.screenshot({ path: shotDir + '/first-screen.png' });
			const png = png_pixels(shot);
			// frame fills (hot palette: red high, blue low); the background has blue >= 176
			const frames = count_pixels(png, (r, g, b) => r >= 200 && b < 100);
			put('tall.frame_share', (frames / (png.width * png.height)).toFixed(3));
			put('tall.inverted', await page.evaluate(() =>
				document.getElementById('frames').getAttribute('fg:inverted')));
			put('tall.title', await page.textContent('#title'));
			put('tall.svg_height', await page.evaluate(() =>
				document.documentElement.getAttribute('height')));
			// the diff graph's legend, as drawn: its saturated ends
			await page.goto('file://' + diffPath);
			const legend = await page.$('#legend');
			const box = await legend.boundingBox();
			put('diff.legend_in_view', box && box.y >= 0 && box.y + box.height <= 720);
			const lshot = await page.screenshot({ path: shotDir + '/diff-legend.png',
							      clip: box });
			const lpng = png_pixels(lshot);
			put('diff.legend_red', count_pixels(lpng, (r, g, b) => r > 220 && g < 90 && b < 90));
			put('diff.legend_blue', count_pixels(lpng, (r, g, b) => b > 220 && r < 90 && g < 90));
			put('diff.legend_text', await page.textContent('#legend'));
			await page.screenshot({ path: shotDir + '/diff.png' });
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
