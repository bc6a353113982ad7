-- Chapter cross-references are written as links to the chapter's Markdown file,
-- e.g. [the harness](02-harness.md#the-rule). This filter turns them into what
-- each output needs: 02-harness.html#the-rule for the HTML pages, and #the-rule
-- (or #ch-02-harness, the id of the chapter's first heading) inside the single EPUB.
function Link(el)
  local stem, frag = el.target:match('^(%d%d%-[%w%-]+)%.md(#?.*)$')
  if not stem then return nil end
  if FORMAT:match('epub') then
    if frag ~= '' then el.target = frag else el.target = '#ch-' .. stem end
  else
    el.target = stem .. '.html' .. frag
  end
  return el
end
