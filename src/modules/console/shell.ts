/**
 * The console's one HTML page: a static shell (landmarks, a skip link, a live region) whose
 * script renders the screen named by the path. It carries no data: the script asks /api for
 * everything with the session cookie, as any other client of the admin interface would.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ')

/** Headers on every console answer, pages and assets alike. */
export const CONSOLE_HEADERS = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
} as const

export const SHELL_HTML =
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Console · Geroscope</title>
<link rel="stylesheet" href="/console/assets/console.css">
<script type="module" src="/console/assets/app.js"></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
  <p class="brand"><a href="/console">Geroscope console</a></p>
  <nav id="nav" aria-label="Console sections"></nav>
  <div id="who"></div>
</header>
<div id="status" class="status" role="status" aria-live="polite"></div>
<main id="main" tabindex="-1">
  <h1>Geroscope console</h1>
  <p id="loading">Loading…</p>
  <noscript><p>The console needs JavaScript: it is a client of the admin interface under /api.</p></noscript>
</main>
<footer class="foot"><p>Built on the admin interface (<a href="/api/openapi.json">/api/openapi.json</a>` +
  `) · <a href="/">Public site</a></p></footer>
</body>
</html>
`
