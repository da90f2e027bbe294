package xlsx

import (
	"archive/zip"
	"bufio"
	"fmt"
	"strings"
	"time"
)

const xmlHeader = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n"

// writeParts writes every part but the sheets, once their number is known.
func (w *Writer) writeParts() error {
	parts := []struct {
		name  string
		write func(b *bufio.Writer)
	}{
		{"[Content_Types].xml", w.contentTypes},
		{"_rels/.rels", func(b *bufio.Writer) { b.WriteString(packageRels) }},
		{"docProps/app.xml", func(b *bufio.Writer) { b.WriteString(appProps) }},
		{"docProps/core.xml", w.coreProps},
		{"docProps/custom.xml", w.customProps},
		{"xl/workbook.xml", w.workbook},
		{"xl/_rels/workbook.xml.rels", w.workbookRels},
		{"xl/styles.xml", func(b *bufio.Writer) { b.WriteString(styles) }},
	}
	for _, p := range parts {
		part, err := w.zw.CreateHeader(&zip.FileHeader{Name: p.name, Method: zip.Deflate, Modified: w.opts.Properties.Created})
		if err != nil {
			return err
		}
		b := bufio.NewWriter(part)
		b.WriteString(xmlHeader)
		p.write(b)
		if err := b.Flush(); err != nil {
			return err
		}
	}
	return nil
}

func (w *Writer) contentTypes(b *bufio.Writer) {
	b.WriteString(`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
		`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
		`<Default Extension="xml" ContentType="application/xml"/>` +
		`<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
		`<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>` +
		`<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>` +
		`<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>` +
		`<Override PartName="/docProps/custom.xml" ContentType="application/vnd.openxmlformats-officedocument.custom-properties+xml"/>`)
	for i := range w.sheets {
		fmt.Fprintf(b, `<Override PartName="/xl/worksheets/sheet%d.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`, i+1)
	}
	b.WriteString(`</Types>`)
}

const packageRels = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
	`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>` +
	`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>` +
	`<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties" Target="docProps/app.xml"/>` +
	`<Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/custom-properties" Target="docProps/custom.xml"/>` +
	`</Relationships>`

const appProps = `<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">` +
	`<Application>storectl</Application></Properties>`

func (w *Writer) coreProps(b *bufio.Writer) {
	p := w.opts.Properties
	when := p.Created.UTC().Format(time.RFC3339)
	b.WriteString(`<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ` +
		`xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" ` +
		`xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">`)
	element(b, "dc:title", p.Title)
	element(b, "dc:description", p.Description)
	element(b, "dc:creator", "storectl")
	b.WriteString(`<dcterms:created xsi:type="dcterms:W3CDTF">` + when + `</dcterms:created>`)
	b.WriteString(`<dcterms:modified xsi:type="dcterms:W3CDTF">` + when + `</dcterms:modified>`)
	b.WriteString(`</cp:coreProperties>`)
}

func element(b *bufio.Writer, name, text string) {
	if text == "" {
		return
	}
	b.WriteString("<" + name + ">")
	writeText(b, text)
	b.WriteString("</" + name + ">")
}

// customPropsFMTID is the format id every custom document property carries.
const customPropsFMTID = "{D5CDD505-2E9C-101B-9397-08002B2CF9AE}"

func (w *Writer) customProps(b *bufio.Writer) {
	b.WriteString(`<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" ` +
		`xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">`)
	for i, p := range w.opts.Properties.Custom {
		fmt.Fprintf(b, `<property fmtid="%s" pid="%d" name="`, customPropsFMTID, i+2)
		writeAttr(b, p.Name)
		b.WriteString(`"><vt:lpwstr>`)
		writeText(b, p.Value)
		b.WriteString(`</vt:lpwstr></property>`)
	}
	b.WriteString(`</Properties>`)
}

// workbook lists the sheets, and names each sheet's filtered range as
// spreadsheets expect of an auto-filter.
func (w *Writer) workbook(b *bufio.Writer) {
	b.WriteString(`<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ` +
		`xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>`)
	for i, s := range w.sheets {
		b.WriteString(`<sheet name="`)
		writeAttr(b, s.name)
		fmt.Fprintf(b, `" sheetId="%d" r:id="rId%d"/>`, i+1, i+1)
	}
	b.WriteString(`</sheets>`)
	if n := len(w.opts.Header); n > 0 {
		b.WriteString(`<definedNames>`)
		for i, s := range w.sheets {
			fmt.Fprintf(b, `<definedName name="_xlnm._FilterDatabase" localSheetId="%d" hidden="1">`, i)
			quoted := "'" + strings.ReplaceAll(s.name, "'", "''") + "'"
			writeText(b, fmt.Sprintf("%s!$A$1:$%s$%d", quoted, columnName(n-1), s.rows))
			b.WriteString(`</definedName>`)
		}
		b.WriteString(`</definedNames>`)
	}
	b.WriteString(`</workbook>`)
}

func (w *Writer) workbookRels(b *bufio.Writer) {
	b.WriteString(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`)
	for i := range w.sheets {
		fmt.Fprintf(b, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet%d.xml"/>`, i+1, i+1)
	}
	fmt.Fprintf(b, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>`, len(w.sheets)+1)
	b.WriteString(`</Relationships>`)
}

// styles are the cell formats the sheets use, by index: 0 the default, 1
// the bold text header, 2 a date-time shown yyyy-mm-dd hh:mm, 3 text (the
// "@" format, so that a cell edited by hand stays text).
const styles = `<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
	`<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm"/></numFmts>` +
	`<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>` +
	`<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>` +
	`<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>` +
	`<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>` +
	`<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
	`<cellXfs count="4">` +
	`<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>` +
	`<xf numFmtId="49" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1" applyNumberFormat="1"/>` +
	`<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>` +
	`<xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>` +
	`</cellXfs>` +
	`<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>` +
	`</styleSheet>`
