package web

// PicUI holds the timeline picture's own words (the legend's shapes, the
// short names of node faults under their marks, the scroll hint), kept
// apart from UI so the picture's wording lives with the picture.
type PicUI struct {
	// NodeMark: a node fault as its mark's label ({0}: a duration).
	NodeMark map[string]string
	// Legend words for shapes the page's legend did not have.
	Instant, Break, Expired, Deleted, Foreign, New, Now string
	// ScrollHint tells a phone user that the picture scrolls sideways.
	ScrollHint string
}

var picUIs = map[string]*PicUI{
	"en": {
		NodeMark: map[string]string{"down": "down", "up": "up", "restart": "restart", "jump": "clock +{0}", "slow": "slow {0}", "promote": "primary"},
		Instant:  "one instant, events in order", Break: "quiet gap drawn shorter",
		Expired: "key expired", Deleted: "key deleted", Foreign: "someone else's lock deleted",
		New: "new in this step", Now: "now",
		ScrollHint: "The timeline scrolls sideways: swipe to see all of it.",
	},
	"ja": {
		NodeMark: map[string]string{"down": "停止", "up": "復帰", "restart": "再起動", "jump": "時計 +{0}", "slow": "遅延 {0}", "promote": "昇格"},
		Instant:  "同じ瞬間（起きた順に並べて表示）", Break: "何も起きない区間を縮めて表示",
		Expired: "キーの期限切れ", Deleted: "キーの削除", Foreign: "他人のロックを削除",
		New: "このステップで起きたこと", Now: "現在",
		ScrollHint: "タイムラインは横にスクロールできます。スワイプして全体を見てください。",
	},
}

func picUI(lang string) *PicUI {
	if p, ok := picUIs[lang]; ok {
		return p
	}
	return picUIs["en"]
}
