// localize.go puts the few words the simulator writes in English — the
// modelled services' replies, a Redlock client's verdict, the storage's
// value, the lanes' node names — into the page's language, at display
// time, with the catalog's phrases (i18n.UI.Localize). sim/ stays
// language-neutral: its strings are also the JSON API, the golden
// transcripts and the explorer's state.
package web

import (
	"strings"

	"locklab/sim"
	"locklab/web/i18n"
)

// modelCommand localizes the words of a modelled command, one argument at
// a time (the API names and paths stay as they are).
func modelCommand(u *i18n.UI, cmd []string) []string {
	out := make([]string, len(cmd))
	for i, c := range cmd {
		out[i] = u.Localize(c)
	}
	return out
}

// storageText is the storage record's value as the page shows it: the
// simulator writes "written by B"; the page says it in its language.
func storageText(u *i18n.UI, v string) string {
	if who, ok := strings.CutPrefix(v, "written by "); ok {
		return i18n.Fill(u.WrittenBy, who)
	}
	return v
}

// nodeLabel is a node's name on its lane, in the event log and on its
// controls: a role or a product name in the page's language; Redlock's
// n1…n5 keep their names.
func nodeLabel(u *i18n.UI, name string) string {
	if l, ok := u.NodeName[name]; ok {
		return l
	}
	return name
}

// eventReply is an event's reply as the page shows it: a model's reply
// localized; a Redis server's reply exactly as redis-cli prints it.
func eventReply(u *i18n.UI, e sim.Event) string {
	if e.Model {
		return u.Localize(e.Reply.String())
	}
	return e.Reply.String()
}
