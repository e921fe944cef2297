// Package web is Cardhouse's browser client: the lobby, the table, chat and spectating, written as
// plain ES modules and CSS (no build step, no Node) and embedded into the binary.
//
// `cardhouse serve` mounts [Static] at "/". Start reading at static/js/app.js (entry, lobby, rooms
// and the WebSocket protocol of docs/protocol.md), then static/js/table.js (the generic table,
// rendered from an sdk.View alone, so a new variant plugin is playable without new client code)
// and static/js/cards.js (the SVG card faces: French, Last Card and the role faces a view's Roles
// name). static/js/moves.js is how the table offers every action a view lists (a card two
// actions take, a rule's own choice, declared arguments); static/js/houserules.js the house-rule
// pages (check and upload, my rules, the room form's chooser, the room's rules in force and the
// host's controls), static/js/options.js the forms built from an option schema.
// static/gallery.html shows every card face; static/preview.html renders recorded views
// (testdata/views, produced by internal/viewgen).
//
// The browser tests (browser_test.go, table_test.go) drive headless Debian chromium through
// chromedp and skip when /usr/bin/chromium is absent; they play as people do. The in-page harness
// testdata/harness.js (injected before the app runs) only reads the page: it decides what a
// player would tap, checks with document.elementFromPoint that the element is what a pointer there
// reaches, and audits before every move that each action the view offers is on the screen and
// uncovered; the Go side then taps there with real input events (CDP mouse press and release at
// 1280x800, touch start and end with touch emulation at 390x844) and the harness checks that the
// click landed on the element aimed at. TestPlayThroughUI has two players (a desktop and a phone)
// and a spectator play each variant to the end against the real server and plugin processes;
// TestPlayAgainstBots plays the tables the issue found unplayable (Last Card against three bots
// and Hotspot at eight on a phone, DRUGS from three on a phone and five on a desktop);
// TestRecordedViews, TestTableReach, TestOneTap, TestFire, TestLogPlace and TestTurnCue render
// recorded views (edited: more seats, long hands) on the preview page; TestRuleActions uses a
// view edited to offer house rules' actions; TestHouseRulesFromUploadToPlay takes a modder from a
// broken script to its action played at the table; TestHouseRuleEndsTheGame plays a rule that ends
// the game to its summary, its owner reading what it printed (the room's "Rule output");
// TestGinRummyPlaythroughs plays Gin Rummy to a game's end against a bot on a phone and on a
// desktop with a friend (laying off on a phone), its hands fixed by a stacked-deck house rule (testdata/gin-stacked.lua) so
// that a knock with layoffs, a gin and an undercut happen, a spectator checked for hidden cards
// in its page and its WebSocket messages; TestTrickGamesByHand plays Hearts and Spades by hand
// against bots and with a friend and a spectator, the deals fixed by the house rules of
// testdata/tricks that the host uploads. Pages emulate
// prefers-reduced-motion so no card flight slows a move. Screenshots go to $CARDHOUSE_CI_OUT (or
// a cardhouse-web-screens folder in the temp dir); NEEDS.md lists what the client still wants
// from the server.
package web
