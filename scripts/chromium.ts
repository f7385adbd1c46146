/**
 * How the e2e tests and the benches launch Debian's Chromium (found or installed by
 * scripts/ensure-chromium.sh): one definition for both.
 *
 * Debian ships the full browser, so headless runs are Chrome's "new headless" mode: the whole browser
 * without a display. Since Chromium ~149 every window (each Playwright context is one) then starts two
 * renderers of its own for the address bar's WebUI popups (chrome://omnibox-popup.top-chrome/ and its
 * AI-mode page), never shown headless. Each does ~0.8 s of main-thread work on this 2-core machine,
 * at the moment a test or bench opens its page: it doubled the front-end bench's figures and made them
 * swing by ±0.3 s (docs/architecture.md, "Front-end bench"). Playwright's own headless shell has no
 * such UI; the feature switch removes it here.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup',
];
