// storage.go holds the protected resource: the data the lock is meant to
// guard, kept on its own Redis node and written through the fencing check.
package sim

// storageKeys are the record and the last accepted token on the storage node.
func (sc *Scenario) dataKey() string  { return "data:" + sc.Resource }
func (sc *Scenario) tokenKey() string { return "data:" + sc.Resource + ":token" }

// writeValue is what a client writes: plain ASCII, so redis-cli's quoting
// shows it unchanged.
func writeValue(c *Client) string { return "written by " + c.Name() }

// storageWrite sends c's write to the storage. With fencing on it goes
// through FencedWriteScript, whose check and update are atomic on the
// server; with fencing off it is a plain SET that always succeeds.
func (w *World) storageWrite(c *Client) (accepted bool, err error) {
	sc := w.sc
	var val any
	if w.opts[OptFence] == FenceOff {
		val, err = w.send(c, c.store, "storage", "write", "SET", sc.dataKey(), writeValue(c))
		accepted = err == nil && val == "OK"
	} else {
		val, err = w.send(c, c.store, "storage", "write",
			"EVAL", FencedWriteScript, 2, sc.dataKey(), sc.tokenKey(), c.token, writeValue(c))
		accepted = err == nil && val == int64(1)
	}
	if err != nil {
		return false, err
	}
	ev := &w.events[len(w.events)-1]
	if w.opts[OptFence] != FenceOff {
		ev.Token = c.token // a plain SET carries no token
	}
	ev.Accepted = &accepted
	return accepted, nil
}

// storageView reads the record and its last accepted token off the node.
func (w *World) storageView() StorageView {
	v, _ := w.store.peek(w.sc.dataKey())
	t, _ := w.store.peek(w.sc.tokenKey())
	n, _ := parseInt(t)
	return StorageView{Value: v, LastToken: n, Fenced: w.opts[OptFence] != FenceOff}
}
