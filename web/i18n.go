// i18n.go holds what the pages do with a language beyond looking up its
// strings (those live in web/i18n, one catalog per language): the request's
// language and what an event's note says.
package web

import (
	"net/http"

	"locklab/web/i18n"
)

// negotiate picks the language the request's Accept-Language asks for.
func negotiate(r *http.Request) string { return i18n.Negotiate(r.Header.Get("Accept-Language")) }
