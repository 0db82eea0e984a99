package web

import "locklab/web/site"

// Site is the server's shared site, for the tests that look at its slots.
func (s *Server) Site() *site.Site { return s.site }
