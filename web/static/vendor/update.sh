#!/bin/sh
# Refreshes the third-party browser modules vendored here (docs/house-rules.md, "The editor"):
# each package of PACKAGES below is fetched from the npm registry as its published tarball
# (npm pack, the ordinary client), and the one ES module file the browser loads is copied out
# unchanged with the package's licence, under PACKAGE/PATH-IN-THE-TARBALL. MANIFEST.tsv records
# package, version, file, the file's sha256 and the tarball's integrity; web's
# TestVendoredModules checks every file against it, and that index.html's import map names them.
# Nothing is built: the files are the authors' own release files. Run from anywhere, then commit
# the changed files with the new versions (and run go test ./web -run Vendored).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# package@version  file in the tarball (the package's "import" entry)
PACKAGES='
@codemirror/state@6.7.6 dist/index.js
@codemirror/view@6.44.2 dist/index.js
@codemirror/language@6.13.1 dist/index.js
@codemirror/commands@6.11.2 dist/index.js
@codemirror/streamparser@6.0.0 dist/index.js
@codemirror/legacy-modes@6.5.5 mode/lua.js
@lezer/common@1.5.7 dist/index.js
@lezer/highlight@1.2.5 dist/index.js
@marijn/find-cluster-break@1.0.4 src/index.js
crelt@1.0.7 index.js
style-mod@4.1.5 src/style-mod.js
w3c-keyname@2.2.8 index.js
'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'package\tversion\tfile\tsha256\ttarball_integrity\n' > "$tmp/MANIFEST.tsv"
echo "$PACKAGES" | while read -r spec file; do
	[ -n "$spec" ] || continue
	pkg=${spec%@*}
	ver=${spec##*@}
	(cd "$tmp" && npm pack --silent "$spec" > name.txt)
	tgz="$tmp/$(cat "$tmp/name.txt")"
	integrity=$(cd "$tmp" && npm view "$spec" dist.integrity)
	mkdir -p "$tmp/x" && tar -xzf "$tgz" -C "$tmp/x"
	mkdir -p "$here/$pkg/$(dirname "$file")"
	cp "$tmp/x/package/$file" "$here/$pkg/$file"
	cp "$tmp/x/package/LICENSE" "$here/$pkg/LICENSE"
	sum=$(sha256sum "$here/$pkg/$file" | cut -d' ' -f1)
	printf '%s\t%s\t%s\t%s\t%s\n' "$pkg" "$ver" "$file" "$sum" "$integrity" >> "$tmp/MANIFEST.tsv"
	rm -rf "$tmp/x" "$tgz"
done
cp "$tmp/MANIFEST.tsv" "$here/MANIFEST.tsv"
echo "vendored: $(($(wc -l < "$here/MANIFEST.tsv") - 1)) files (MANIFEST.tsv)"
