import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
const SB = '/work/main/storybook-static';
const MIME: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };
const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/+/, '') || 'index.html';
  const file = join(SB, path);
  if (!existsSync(file) || statSync(file).isDirectory()) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 900, height: 700 } });
await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/iframe.html?id=${encodeURIComponent(process.env.STORY!)}&viewMode=story`);
await page.waitForSelector('.ag-row[row-index="0"]', { timeout: 60000 });
await page.waitForTimeout(800);
if (process.env.CLICK) { await page.locator(process.env.CLICK).first().click(); await page.waitForTimeout(500); }
await page.screenshot({ path: process.env.OUT! });
await browser.close(); server.close();
