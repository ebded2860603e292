import { describe, expect, it } from "vitest";
import { pythonRepr, pythonTripleQuoted, renderJinja } from "./jinja";

const render = (template: string, values: Record<string, unknown> = {}) => renderJinja(template, values as never);

describe("Jinja2 rendering as Dify's template-transform runner does it", () => {
  it("renders loops, conditions, filters and Python's dict and str methods", () => {
    const template = "{% for k, v in scores.items() %}{{ k.upper() }}={{ v }}{% if not loop.last %}, {% endif %}{% endfor %}|{{ names | join('; ') }}|{{ title.strip().title() }}|{{ names | length }}";
    expect(render(template, { scores: { a: 1, b: 2 }, names: ["x", "y"], title: "  the tide  " })).toEqual({ ok: true, text: "A=1, B=2|x; y|The Tide|2" });
  });

  it("prints lists, dicts and booleans as Python's repr, not JavaScript's", () => {
    expect(render("{{ items }} {{ data }} {{ flag }} {{ nothing }}", { items: ["a", "it's"], data: { n: 1, ok: true }, flag: false, nothing: null })).toEqual({ ok: true, text: `['a', "it's"] {'n': 1, 'ok': True} False None` });
    expect(render("{% if flag %}yes{% else %}no{% endif %}", { flag: false })).toEqual({ ok: true, text: "no" });
    expect(pythonRepr([null, 1.5, "a\nb"])).toBe("[None, 1.5, 'a\\nb']");
  });

  it("decodes the template's backslash escapes as the Python literal Dify pastes it into does, and drops one trailing newline", () => {
    expect(render("a\\nb\\tc \\d\n")).toEqual({ ok: true, text: "a\nb\tc \\d" });
  });

  it("fails, as Python's SyntaxError, a template whose quotes close Dify's ''' literal early", () => {
    expect(render("He said '''hi'''")).toEqual({ ok: false, certain: true, reason: "SyntaxError: the template's quotes end the ''' string Dify's runner pastes it into." });
    expect(render("ends with a quote'")).toMatchObject({ ok: false, certain: true });
    expect(render("ends with a backslash \\")).toMatchObject({ ok: false, certain: true });
    expect(render("bad \\x4 escape")).toMatchObject({ ok: false, certain: true });
    // Two trailing quotes close the literal and open an empty one: valid Python, and the quotes are lost.
    expect(pythonTripleQuoted("ok''")).toEqual({ ok: true, text: "ok" });
  });

  it("renders a missing variable as empty text, as Jinja2's default Undefined does", () => {
    expect(render("[{{ missing }}]")).toEqual({ ok: true, text: "[]" });
  });

  it("reports what nunjucks cannot render as uncertain, never as Dify's failure", () => {
    // Jinja2 has the map filter; nunjucks does not, so the dry run cannot say what Dify would print.
    const result = render("{{ people | map(attribute='name') | join(', ') }}", { people: [{ name: "a" }] });
    expect(result).toMatchObject({ ok: false, certain: false });
    expect(!result.ok && result.reason).toMatch(/^The template could not be rendered here: .*filter not found: map/);
  });
});
