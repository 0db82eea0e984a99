// Package picture draws a timeline: it lays a sim.Timeline out as
// positioned shapes (layout.go), says in words what the picture shows for
// its text alternative (text.go), draws it as SVG on a page or as a
// standalone file for slides (picture.templ, export.templ). Its words come
// from web/narrate and the catalog; it knows nothing of HTTP.
package picture
