// Package picture draws a timeline: it lays a sim.Timeline out as
// positioned shapes (layout.go), says in words what the picture shows for
// its text alternative (text.go), draws it as SVG on a page or as a
// standalone file for slides, captioned with what it shows (picture.templ,
// export.templ, export.go), and draws that same file as a PNG for the
// wikis and chats that take no SVG (raster*.go: the SVG parsed back and
// painted with export.css's rules, its text in fonts embedded from
// fonts/). Its words come from web/narrate and the catalog; it knows
// nothing of HTTP.
package picture
