// assets.go serves the embedded static files under content-hashed URLs, so
// they can be cached for a year and still change with each release.

package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"locklab/web/i18n"
)

// Assets is the static file set with each file's content hash.
type Assets struct {
	files map[string]asset
}

type asset struct {
	hash string
	data []byte
	typ  string
}

// NewAssets reads every file of fsys once, at start-up.
func NewAssets(fsys fs.FS) (*Assets, error) {
	a := &Assets{files: map[string]asset{}}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		typ := mime.TypeByExtension(path.Ext(p))
		if typ == "" {
			typ = "text/plain; charset=utf-8"
		}
		a.files[p] = asset{hash: hex.EncodeToString(sum[:5]), data: data, typ: typ}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// The languages' font rules come from the registry (i18n.FontCSS):
	// appended to the stylesheet, so they load with it and change its hash.
	if css, ok := a.files["css/app.css"]; ok {
		data := append(bytes.Clone(css.data), "\n/* fonts per language: i18n.Registry */\n"+i18n.FontCSS()...)
		sum := sha256.Sum256(data)
		a.files["css/app.css"] = asset{hash: hex.EncodeToString(sum[:5]), data: data, typ: css.typ}
	}
	return a, nil
}

// URL is the versioned address of a static file: /static/<hash>/<name>.
// It panics on a name that does not exist, which only a template typo can
// cause and the tests render every template.
func (a *Assets) URL(name string) string {
	f, ok := a.files[name]
	if !ok {
		panic("web: no static file " + name)
	}
	return "/static/" + f.hash + "/" + name
}

// ServeHTTP serves /static/{hash}/*. The current hash gets a year of
// immutable caching; an old hash (a page from before a deploy) still gets
// the file, but only briefly cached.
func (a *Assets) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(chi.URLParam(r, "*"), "/")
	f, ok := a.files[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	if chi.URLParam(r, "hash") == f.hash {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "public, max-age=60")
	}
	w.Header().Set("Content-Type", f.typ)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(f.data))
}
