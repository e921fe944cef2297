package web

import (
	"embed"
	"io/fs"
)

//go:embed static
var static embed.FS

// Static returns the browser client's files, rooted so that "index.html" is the app shell,
// "js/..." the ES modules, "css/..." the style sheets and "gallery.html" the card gallery. The
// server serves it at "/" (for Echo: e.StaticFS("/", web.Static())); every path the client asks
// for that is not a file should be answered with index.html only if it is a client route, and the
// client uses hash routes (#/room/CODE), so no fallback is needed.
func Static() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		// fs.Sub fails only on an invalid path; "static" is a constant valid path.
		panic("web: " + err.Error())
	}
	return sub
}
