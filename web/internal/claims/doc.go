// Package claims holds only tests: every claim a page makes about a
// timeline — the picture's bars, their ends and end markers and the
// words on them, the TTL left, who holds the lock, the text alternative,
// the event log's commands and replies, the words of "What went wrong",
// the storage's lane, the Lab's and the design grade's rows and lines —
// held to what the servers did, as sim/oracle reads it off the servers
// themselves, not to what the other surfaces say.
//
// The expected words are built from the facts with the catalogs' own
// templates, so a test names the claim that is untrue and the fact it
// contradicts, in the language it was read in.
package claims
