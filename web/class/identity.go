// identity.go issues and checks a student's identity: the server's, and
// signed, so that what a cookie says cannot be made up. The cookie holds
// "ID.MAC": ID is 128 random bits (32 hex digits), the id every key of a
// room stores; MAC is the first 128 bits of HMAC-SHA256 of the ID under
// the class's signing key. A value the server did not sign (made-up hex
// digits, an altered MAC, the unsigned ids of earlier versions) is no
// identity: the student's page issues a fresh one, which costs its
// client a join (limits.Join), and an answer without one is refused.
//
// The key lives in the class Redis (lockclass:sidkey, 256 random bits),
// made once by whichever instance needs it first (a script that reads
// it or, when there is none, sets the one offered: SET NX in one step)
// and read by every other, so every instance sharing -class-redis
// accepts every other's identities, one started later included. It is
// read in the same round trip as the room (store.get), never kept in
// process memory: an instance cannot go on signing or checking with a
// key Redis no longer has (after the class Redis lost its data, every
// room with it). One key rather than a secret per room: a student's one
// cookie serves every class they join (and the next lesson of the same
// class), and a browser does not collect one cookie per class.

package class

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"

	"github.com/redis/go-redis/v9"
)

const sidKeyKey = "lockclass:sidkey"

// sidKeyScript returns the signing key, setting ARGV[1] as the key if
// there is none yet.
var sidKeyScript = redis.NewScript(`
local k = redis.call('GET', KEYS[1])
if k then return k end
redis.call('SET', KEYS[1], ARGV[1])
return ARGV[1]`)

// signingKey is the class's signing key, made now if there is none.
func (s *classStore) signingKey(ctx context.Context) ([]byte, error) {
	k, err := sidKeyScript.Run(ctx, s.rdb, []string{sidKeyKey}, randomHex(32)).Text()
	if err != nil {
		return nil, err
	}
	key := decodeKey(k)
	if key == nil {
		return nil, errors.New("class: the signing key in Redis is not 32 bytes of hex")
	}
	return key, nil
}

// decodeKey reads a signing key as stored (nil: none, or not a key).
func decodeKey(k string) []byte {
	b, err := hex.DecodeString(k)
	if err != nil || len(b) < 32 {
		return nil
	}
	return b
}

// sidMAC is the signature of student id under key, as the cookie carries it.
func sidMAC(key []byte, id string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("locklab student id\x00"))
	m.Write([]byte(id))
	return hex.EncodeToString(m.Sum(nil)[:16])
}

// identity is the student id a cookie value carries, if the server
// signed it with the key read with room; "" if not.
func identity(room *Room, value string) string {
	id, mac, ok := strings.Cut(value, ".")
	if !ok || len(id) != 32 || len(mac) != 32 || room.sidKey == nil {
		return ""
	}
	if _, err := hex.DecodeString(id); err != nil {
		return ""
	}
	if !hmac.Equal([]byte(mac), []byte(sidMAC(room.sidKey, id))) {
		return ""
	}
	return id
}

// studentID is the identity the request's cookie carries in room ("" if
// none, or one the server did not sign).
func studentID(r *http.Request, room *Room) string {
	c, err := r.Cookie(sidCookie)
	if err != nil || len(c.Value) > 128 {
		return ""
	}
	return identity(room, c.Value)
}

// issueStudent makes a new identity, signed with the key read with room
// (or, if Redis had none then, the one made now), and sets its cookie.
// Lax, not Strict: students arrive from a QR code or a link, and the id
// must come with that first visit.
func (s *Handler) issueStudent(w http.ResponseWriter, r *http.Request, room *Room) (string, error) {
	key := room.sidKey
	if key == nil {
		var err error
		if key, err = s.class.store.signingKey(r.Context()); err != nil {
			return "", err
		}
	}
	id := randomHex(16)
	http.SetCookie(w, &http.Cookie{Name: sidCookie, Value: id + "." + sidMAC(key, id), Path: "/", HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: s.HTTPS(r), MaxAge: 12 * 3600})
	return id, nil
}
