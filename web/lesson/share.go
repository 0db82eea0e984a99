// share.go holds "share this moment": the current page's absolute address
// and its QR code, so students in a classroom can open the same timeline
// state on their phones.

package lesson

import (
	"locklab/web/site"
	"net/http"
)

// QR answers /{lang}/lessons/{slug}/qr.svg with the QR code of the
// lesson page in the same state. It is an image of its own, fetched only
// when the learner opens "share this moment" (lazy, inside a closed
// details), so no step pays for encoding it. The state is parsed, not
// replayed: a QR code of a malformed state is a 400 like the page.
func (s *Handler) QR(w http.ResponseWriter, r *http.Request) {
	rq := RequestOf(r)
	u := rq.UI
	w = PictureFile(w, "locklab-qr.svg")
	s.Cached(w, r, u, func() ([]byte, string, *site.Error) {
		if rq.Err != nil {
			return nil, "", rq.Err
		}
		return site.QRImage(u, s.Absolute(r, rq.Base()+rq.Moment()))
	})
}
