// Chromium features turned off wherever Vigil drives Chromium (the browser checks, the browser tests).
//
// Headless Chromium 156 preloads the "top chrome" WebUI — the omnibox's popup, its AI-mode variant — in a renderer of
// its own for every new window, so every browser context paid about a second of CPU for a popup no one can open
// (measured with a Chromium trace: a "WebUI Top Renderer" at 0.5-1 s per context beside 0.1 s for the page itself).
const topChromeWebUi = ["PreloadTopChromeWebUI", "WebUIOmniboxPopup", "WebUIOmniboxFullPopup", "WebUIOmniboxAimPopup"];

// Chromium also starts a spare renderer ahead of the next navigation, which a fresh context (every browser check,
// every browser test) does not use: 0.15 s of CPU per page measured, for nothing.
const spareRenderer = ["SpareRendererForSitePerProcess"];

// A --disable-features switch replaces Playwright's own (Chromium keeps the last value of a switch), so the list repeats
// what playwright-core 1.65 disables (chromiumSwitches.ts): no network calls to Google, HTTP kept on HTTP, no paint
// holding, storage not partitioned by third party.
const playwrightDefaults = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
];

/** The --disable-features switch to pass to chromium.launch(). */
export const DISABLE_FEATURES = `--disable-features=${[...playwrightDefaults, ...topChromeWebUi, ...spareRenderer].join(",")}`;
