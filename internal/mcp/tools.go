package mcp

import (
	"context"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// tool is one task an assistant can ask of a store.
type tool struct {
	name, title, description string
	// write marks a tool registered only with --allow-writes.
	write bool
	// readOnly: it changes nothing (the mirror's own sync aside); store:
	// it may send requests to the store (the annotations' open world).
	readOnly, store bool
	// groups are the mirror's lists an answer from it reads.
	groups []string
	// input is the tool's own arguments (profile, limit and cursor are
	// added); item and data the shape of its result's items and data.
	input      []prop
	item, data *jsonschema.Schema
	lists      bool
	run        func(ctx context.Context, s *server, c *call) (*result, error)
}

// allTools are every tool the server has; --tools picks some. Built on
// first use: a run of any other command must not pay for their schemas.
var allTools = sync.OnceValue(func() []*tool {
	submission := anObject("a back-in-stock submission as the store sent it",
		field("id", anID("")), field("product_id", anID("")), field("variant_id", anID("")),
		field("customer_email", text("")), field("customer_phone", text("")), field("product_title", text("")),
		field("variant_title", text("")), field("sku", text("")), field("status", anID("0 pending, 1 sent")),
		field("created_at", text("")), field("updated_at", text("")))
	demandRow := anObject("requests for one product (or variant)",
		field("product_id", anID("")), field("product_title", text("")), field("variant_id", anID("")),
		field("variant_title", text("")), field("sku", text("")), field("pending", whole("", 0, 1<<53)),
		field("sent", whole("", 0, 1<<53)), field("newest", text("")), field("oldest", text("")))
	winnerRow := anObject("a pre-order product row as the store sent it, and the command's answer for it",
		required("row", anObject("the row: variant_id, priority_profile_id (the winning offer), all_profile_ids, …")),
		required("answer", anObject("the winning offer (priority_profile_id), its name, why it wins, units sold against the limit, as `storectl preorder products` shows them")))
	anItem := anObject("an item as the store sent it")
	return []*tool{
		{name: "find_submissions", title: "Find back-in-stock submissions", readOnly: true, groups: []string{"bis"}, lists: true,
			description: "Find back-in-stock submissions by customer e-mail or phone, product, variant, SKU, status or date, newest first, from the local mirror (no request to the store).",
			input: []prop{
				field("email", text("customer e-mail, any case; * stands for any text (*@example.com)")),
				field("phone", text("customer phone; digits are compared, with or without the country code")),
				field("product_id", anID("product id")), field("variant_id", anID("variant id")),
				field("sku", text("variant SKU, any case")),
				field("status", oneOf("pending: the restock e-mail is not sent yet; sent: it is", "pending", "sent")),
				field("since", text("only submissions created at or after this date (YYYY-MM-DD, or an ISO 8601 time)")),
				refreshProp},
			item: submission, run: runFind},
		{name: "demand", title: "Demand per product or variant", readOnly: true, groups: []string{"bis"}, lists: true,
			description: "Count who waits for which product or variant: pending and sent back-in-stock requests, newest and oldest, most pending first (what to restock first), from the mirror.",
			input: []prop{
				field("by", oneOf("count per product (default) or per variant", "product", "variant")),
				field("status", oneOf("only what has pending, or sent, requests", "pending", "sent")),
				refreshProp},
			item: demandRow, run: runDemand},
		{name: "report", title: "Back-in-stock report", readOnly: true, groups: []string{"bis"}, lists: true,
			description: "The back-in-stock report from the mirror: signups, sends, opens, clicks, rates and waiting times (data: summary, periods, locales) and per product or variant (items, most pending first).",
			input: []prop{
				field("since", text("only submissions created at or after this date (YYYY-MM-DD or ISO 8601)")),
				field("until", text("only submissions created before the end of this date")),
				field("by", oneOf("periods of a day, week (default) or month", "day", "week", "month")),
				field("product_id", anID("one product")), field("variant_id", anID("one variant")), field("sku", text("one variant SKU")),
				field("by_variant", flag("list variants instead of products")),
				refreshProp},
			item: anItem, data: anObject("the report but its product list: summary, periods, as_of, range, notes, …"), run: runReport},
		{name: "preorder_winner", title: "Which pre-order offer wins", readOnly: true, groups: []string{"preorder"}, lists: true,
			description: "Which pre-order offer wins for a variant (or for each variant of a product), and why, from the mirror.",
			input:       []prop{field("variant_id", anID("the variant")), field("product_id", anID("the product: each of its variants")), refreshProp},
			item:        winnerRow, run: runWinner},
		{name: "offers", title: "Pre-order offers", readOnly: true, store: true, groups: []string{"preorder"}, lists: true,
			description: "List the pre-order offers (from the mirror, no request), or get one offer's detail by id (one request to the store).",
			input:       []prop{field("id", anID("an offer's id: its detail, from the store"))},
			item:        anItem, data: anObject("the offer's detail, as the store sent it"), run: runByID("preorder")},
		{name: "comingsoon_rules", title: "Coming-soon rules", readOnly: true, store: true, groups: []string{"comingsoon"}, lists: true,
			description: "List the coming-soon rules (from the mirror, no request), or get one rule by id (one request to the store).",
			input:       []prop{field("id", anID("a rule's id: the rule with its translations, from the store"))},
			item:        anItem, data: anObject("the rule, as the store sent it"), run: runByID("comingsoon")},
		{name: "catalog_search", title: "Search the catalog", readOnly: true, store: true, lists: true,
			description: "Search the storefront catalog for products matching a term (the catalog API: one request a page).",
			input: []prop{
				field("term", text("what to search for")),
				field("sort", text("sort order, such as price-ascending (default: relevance)")),
				field("tags", listOf("only products with these tags", text(""))), field("exclude_tags", listOf("leave out products with these tags", text(""))),
				field("locale", text("locale")), field("currency", text("currency")), field("country", text("country for market pricing"))},
			item: anItem, data: anObject("the rest of the answer: term, total_product, suggestions, pagination"), run: runCatalog("search")},
		{name: "catalog_filter", title: "Filter the catalog", readOnly: true, store: true, lists: true,
			description: "Filter the storefront catalog by collection, filter values, tags, vendor or type (the catalog API: one request a page).",
			input: []prop{
				field("collection", anID("a collection's numeric id (0: all products)")),
				field("page_type", oneOf("page type", "collection", "search", "index")),
				field("query", text("free-text search within the page")),
				field("filters", listOf("filter values to select, each KEY=VALUE (an option's handle or id)", text(""))),
				field("tags", listOf("only products with these tags", text(""))), field("exclude_tags", listOf("leave out products with these tags", text(""))),
				field("vendor", text("only this vendor")), field("type", text("only this product type")),
				field("sort", text("sort order, such as price-ascending")),
				field("locale", text("locale")), field("currency", text("currency")), field("country", text("country for market pricing"))},
			item: anItem, data: anObject("the rest of the answer: filters, has_filter, pagination"), run: runCatalog("filter")},
		{name: "mirror_status", title: "How fresh the mirror is", readOnly: true,
			description: "How fresh the local mirror is: per list its rows, when the last full and incremental syncs finished, unfinished passes, and the submissions' detail coverage.",
			data:        anObject("mirror status: resources, submission_details, size_bytes, …"), run: runStatus},
		{name: "mirror_sync", title: "Bring the mirror up to date", readOnly: true, store: true,
			description: "Bring the mirror up to date with an incremental sync: it only reads the store, paced at the shop API's 30 requests a minute (at least one request a list; it says how many, and how long, before it spends them), and stops after max_seconds, to continue at the next call.",
			input: []prop{
				field("lists", listOf("the lists to sync (default: all three)", oneOf("", syncLists...))),
				field("max_seconds", whole("stop after this long (default 45); the next call continues", 1, maxSyncSeconds))},
			item: anObject("one list's pass: resource, kind, pages, new, changed, gone, …"), run: runSync},
		{name: "comingsoon_plan", title: "Plan coming-soon rules", write: true, readOnly: true, store: true, lists: true,
			description: "Plan making the store's coming-soon rules equal to a list of rules: what would be created, replaced, left unchanged or deleted. Nothing is sent. Show the plan to the user; comingsoon_apply applies exactly this plan, by its plan_id, before it expires.",
			input: []prop{
				required("rules", listOf("every rule that should exist, with the keys of `storectl comingsoon create --from-file`; a rule is known by its name",
					anObject("a rule", field("name", text("")), field("start_date", text("ISO 8601, or YYYY-MM-DD HH:MM:SS")), field("end_date", text("")),
						field("apply_to", oneOf("", "all", "product", "variant", "collection")), field("product_ids", listOf("", anID(""))),
						field("variant_ids", listOf("", anID(""))), field("collection_id", anID("")), field("status", anID("1 active, 0 not")),
						field("show_countdown", flag("")), field("translations", anObject("LANG: {KEY: TEXT}"))))),
				field("prune", flag("also delete the rules whose names the list does not have"))},
			item: anObject("a step: action (create, replace, unchanged, delete), row, name, id, changes, request"),
			data: anObject("plan_id, expires_at, summary"), run: runPlan},
		{name: "comingsoon_apply", title: "Apply a coming-soon plan", write: true, store: true,
			description: "Apply the plan comingsoon_plan made, by its plan_id: exactly that plan, once, before it expires (refused if the store's rules changed since). Creates and deletes coming-soon rules.",
			input:       []prop{required("plan_id", text("the plan_id comingsoon_plan gave"))},
			item:        anObject("a rule's outcome: action, row, name, id, outcome, message"), data: anObject("plan_id, outcome"), run: runApply},
	}
})

// toolNamed finds a tool by name.
func toolNamed(name string) *tool {
	for _, t := range allTools() {
		if t.name == name {
			return t
		}
	}
	return nil
}

// ToolNames are the names --tools takes, reads first.
func ToolNames() []string {
	tools := allTools()
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.name
	}
	return names
}

// inputSchema is the tool's arguments for a server of these profiles.
func (t *tool) inputSchema(profiles []string) *jsonschema.Schema {
	props := append([]prop{profileProp(profiles)}, t.input...)
	if t.lists {
		props = append(props, pageProps()...)
	}
	return closed(props...)
}
