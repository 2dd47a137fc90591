// Package browsertest drives headless Chromium against `serve` and the HTML report. It is
// a module of its own so that chromedp, which only these tests use, is not a requirement of
// the main module (`go mod why github.com/chromedp/chromedp` there says it is not needed).
// Run it with `cd internal/browsertest && go test ./...`; .ci/run does.
package browsertest
