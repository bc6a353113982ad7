# bx_code_text(<file> <out>): a source file's text without the book's marker
# lines, which open and close named snippets (see same-code.cmake).
# bx_code_hash(<file> <out>): SHA-256 of that text.
function(bx_code_text file out)
  file(READ "${file}" _text)
  string(REGEX REPLACE "[ \t]*(//|#)[ \t]*(end-snippet|snippet:)[^\n]*\n" "" _text "${_text}")
  set(${out} "${_text}" PARENT_SCOPE)
endfunction()

function(bx_code_hash file out)
  bx_code_text("${file}" _text)
  string(SHA256 _hash "${_text}")
  set(${out} "${_hash}" PARENT_SCOPE)
endfunction()
