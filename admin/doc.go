// Package admin is Cardhouse's admin area (issue 8): server-rendered pages and a JSON API under
// /admin for managing accounts, rooms, plugins and house rules, an audit log of every admin
// action, and the account commands of the CLI (`cardhouse admin ...`).
//
// Start reading at [New] and [Admin.Mount] (admin.go): they build the area over the platform's
// store and room manager and list every route, all behind one guard (an anonymous visitor is sent
// to /admin/login, a signed-in non-admin gets 403). Each admin action is one method in actions.go
// that does the work and writes its audit entry; the JSON API (api.go) calls those methods, and
// the pages (pages.go, templates/) only read and render: their buttons post to the JSON API
// through assets/admin.js, which adds the session's CSRF header and asks for confirmation where a
// form has data-confirm. cli.go holds what the command line does; nodes.go the nodes of a
// cluster. In a cluster an action on a room another node runs is forwarded there by the
// platform's server (the room answers room.ElsewhereError, which the guard lets through), and
// what must act on every node travels as the room manager's events. Issue 23's pages have files
// of their own: problems.go (stuck games, failing house rules, plugin deaths, store failures),
// replay.go (a game stepped through as a spectator saw it, drawn by assets/replay.js),
// liverooms.go (the room list's activity, filters and bulk close; assets/rooms.js refreshes and
// sorts it), moderation.go (an account's sessions and chat, a room's bans) and plugins.go (the
// plugin folder's rescan and refusals).
//
// The platform never imports this package: the main binary mounts it (cmd_serve.go).
package admin
