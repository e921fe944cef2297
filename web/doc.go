// Package web is Cardhouse's browser client: the lobby, the table, chat and spectating, written as
// plain ES modules and CSS (no build step, no Node) and embedded into the binary.
//
// `cardhouse serve` mounts [Static] at "/". Start reading at static/js/app.js (entry, lobby, rooms
// and the WebSocket protocol of docs/protocol.md), then static/js/table.js (the generic table,
// rendered from an sdk.View alone, so a new variant plugin is playable without new client code)
// and static/js/cards.js (the SVG card faces: French, Last Card and the role faces a view's Roles
// name). static/gallery.html shows every card face; static/preview.html renders recorded views
// (testdata/views, produced by internal/viewgen).
//
// The browser tests (browser_test.go) drive headless Debian chromium through chromedp and skip
// when /usr/bin/chromium is absent. TestRecordedViews renders the recorded views;
// TestPlayThroughUI starts the real server with the real plugin processes and, for each variant,
// has two players and a spectator in three browser contexts play a game to the end by clicking
// the table. The clicking is done inside each page by testdata/harness.js (injected before the
// app runs), which waits on the page's own updates rather than being polled from Go, and pages
// emulate prefers-reduced-motion so no card flight slows a move. Screenshots go to
// $CARDHOUSE_CI_OUT (or a cardhouse-web-screens folder in the temp dir); NEEDS.md lists what the
// client still wants from the server.
package web
