# bx_code_hash(<file> <out>): SHA-256 of a source file without the book's
# marker lines, which open and close named snippets (see same-code.cmake).
function(bx_code_hash file out)
  file(READ "${file}" _text)
  string(REGEX REPLACE "[ \t]*(//|#)[ \t]*(end-snippet|snippet:)[^\n]*\n" "" _text "${_text}")
  string(SHA256 _hash "${_text}")
  set(${out} "${_hash}" PARENT_SCOPE)
endfunction()
