package web

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"io/fs"
	"strings"
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

// ScriptHashes are the CSP sources ('sha256-…') of index.html's inline scripts, that is its
// import map (which names the vendored editor's modules, static/vendor): the server's
// Content-Security-Policy allows them, and no other inline script, in its script-src.
func ScriptHashes() []string {
	page, err := fs.ReadFile(static, "static/index.html")
	if err != nil {
		panic("web: " + err.Error())
	}
	var out []string
	rest := string(page)
	const open, end = `<script type="importmap">`, `</script>`
	for {
		i := strings.Index(rest, open)
		if i < 0 {
			return out
		}
		rest = rest[i+len(open):]
		j := strings.Index(rest, end)
		if j < 0 {
			panic("web: index.html has an unclosed import map")
		}
		sum := sha256.Sum256([]byte(rest[:j]))
		out = append(out, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
		rest = rest[j:]
	}
}
