# bx_code_text(<file> <out>): a source file's text without its comment lines:
# the book's marker lines, which open and close named snippets (see
# same-code.cmake), and every line that holds only a // comment. Comments do
# not change the code, and a stage's files describe their own stage in them.
# bx_code_hash(<file> <out>): SHA-256 of that text.
function(bx_code_text file out)
  file(READ "${file}" _text)
  string(REGEX REPLACE "[ \t]*(//|#)[ \t]*(end-snippet|snippet:)[^\n]*\n" "" _text "${_text}")
  string(REGEX REPLACE "\n[ \t]*//[^\n]*" "" _text "\n${_text}")
  set(${out} "${_text}" PARENT_SCOPE)
endfunction()

function(bx_code_hash file out)
  bx_code_text("${file}" _text)
  string(SHA256 _hash "${_text}")
  set(${out} "${_hash}" PARENT_SCOPE)
endfunction()
