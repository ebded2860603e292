import { describe, expect, it } from "vitest";
import { jinjaSyntaxError } from "./jinja-syntax";
import { renderJinja } from "./jinja";

describe("template errors Jinja2 raises whatever the inputs", () => {
  it("accepts templates Jinja2 parses", () => {
    for (const template of [
      "{{ title }}\n{% for s in sections %}## {{ loop.index }}\n{{ s | trim }}{% else %}none{% endfor %}",
      "{%- if a -%}{{ a|join(', ') }}{%- elif b %}{{ b.upper() }}{% else %}{{ {'k': [1, 2]}['k'][0] }}{% endif %}",
      "{% set x = 'a}}b' %}{{ x }}{# a comment with {{ braces }} #}{% raw %}{{#1.text#}}{% endraw %}",
      "{% set body %}text{% endset %}{% filter upper %}{{ body }}{% endfilter %}{{ 3 // 2 ** 2 ~ '%' }}",
    ]) expect(jinjaSyntaxError(template), template).toBeNull();
  });

  it("rejects Dify's {{#node.var#}} references, unbalanced brackets and unclosed tags", () => {
    expect(jinjaSyntaxError("# {{#1.title#}}\n{{ body }}")).toBe('TemplateSyntaxError: unexpected char "#"');
    expect(jinjaSyntaxError("Intro: {{intro}")).toBe("TemplateSyntaxError: unexpected '}'");
    expect(jinjaSyntaxError("{{ items[0 }}")).toBe("TemplateSyntaxError: unexpected '}'");
    expect(jinjaSyntaxError("{{ title")).toBe("TemplateSyntaxError: unexpected end of template");
    expect(jinjaSyntaxError("## Summary\n{{{summary}}}")).toBe("TemplateSyntaxError: expected token ':', got '}'");
    expect(jinjaSyntaxError("{# never closed")).toBe("TemplateSyntaxError: Missing end of comment tag");
  });

  it("rejects filters and tags a plain jinja2.Template does not have, and blocks that do not nest", () => {
    expect(jinjaSyntaxError("{{ text | regex_replace('a', 'b') }}")).toBe("TemplateAssertionError: No filter named 'regex_replace'.");
    expect(jinjaSyntaxError("{% for x in xs %}{% break %}{% endfor %}")).toBe("TemplateSyntaxError: Encountered unknown tag 'break'.");
    expect(jinjaSyntaxError("{% if a %}{% endfor %}")).toMatch(/^TemplateSyntaxError: Encountered unknown tag 'endfor'/);
    expect(jinjaSyntaxError("{% for x in xs %}{{ x }}")).toMatch(/Unexpected end of template.*'endfor'/);
  });

  it("makes the template node's failure certain, unlike what only nunjucks cannot render", () => {
    expect(renderJinja("{{#1.title#}}", {})).toMatchObject({ ok: false, certain: true });
    expect(renderJinja("{{ people | map(attribute='name') | join(', ') }}", { people: [{ name: "a" }] })).toMatchObject({ ok: false, certain: false });
  });
});
