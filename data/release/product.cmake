# Read by CMakeLists.txt and by the student edition's CMakeLists.txt (data/release/), so that
# both build the student target from the same list: data/release/product.txt.

# The list's entries of the given editions and kinds (regular expressions), as "kind;path" pairs
# in `out_var`; the list becomes a configure dependency.
function(blockcheck_product_entries root editions kinds out_var)
  set(list ${root}/data/release/product.txt)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${list})
  file(STRINGS ${list} lines REGEX "^(${editions}) +(${kinds}) +[^ ]+$")
  set(entries "")
  foreach(line ${lines})
    string(REGEX REPLACE "^[a-z]+ +([a-z]+) +(.+)$" "\\1=\\2" entry "${line}")
    list(APPEND entries ${entry})
  endforeach()
  set(${out_var} ${entries} PARENT_SCOPE)
endfunction()

# The student side's library sources (every .cpp under its `sources` folders) into
# `library_var`, and its main file into `main_var`, as absolute paths under `root`.
function(blockcheck_student_sources root library_var main_var)
  blockcheck_product_entries(${root} "both" "sources|main" entries)
  set(library "")
  set(main "")
  foreach(entry ${entries})
    string(REPLACE "=" ";" entry ${entry})
    list(GET entry 0 kind)
    list(GET entry 1 path)
    if(kind STREQUAL "main")
      set(main ${root}/${path})
    else()
      file(GLOB_RECURSE found CONFIGURE_DEPENDS ${root}/${path}/*.cpp)
      list(APPEND library ${found})
    endif()
  endforeach()
  set(${library_var} ${library} PARENT_SCOPE)
  set(${main_var} ${main} PARENT_SCOPE)
endfunction()

# Stops the configuration when a file the build compiles or reads lies under no `sources`,
# `main` or `build` path of the list (of the editions given): the root script would not rebuild
# after an edit of it, and the Gradescope zip would not carry it.
function(blockcheck_require_listed root editions)
  blockcheck_product_entries(${root} "${editions}" "sources|main|build" entries)
  foreach(file ${ARGN})
    file(RELATIVE_PATH relative ${root} ${file})
    set(listed FALSE)
    foreach(entry ${entries})
      string(REGEX REPLACE "^[a-z]+=" "" path ${entry})
      string(FIND "${relative}/" "${path}/" at)
      if(at EQUAL 0)
        set(listed TRUE)
      endif()
    endforeach()
    if(NOT listed)
      message(FATAL_ERROR "${relative}: the build reads it, but data/release/product.txt lists no `sources`, `main` or "
                          "`build` path holding it (add one, so that ./blockcheck rebuilds after an edit and the "
                          "Gradescope zip carries it)")
    endif()
  endforeach()
endfunction()

# Each file of the list into the unity group of its folder (checker_block, solutions_ch25, ...):
# with UNITY_BUILD_MODE GROUP, one translation unit a folder.
function(blockcheck_unity_by_folder root sources_var)
  foreach(source ${${sources_var}})
    get_filename_component(folder ${source} DIRECTORY)
    file(RELATIVE_PATH folder ${root} ${folder})
    string(REGEX REPLACE "/detail$" "" folder ${folder})  # a room's machinery: the room's group
    string(REPLACE "/" "_" group ${folder})
    set_source_files_properties(${source} PROPERTIES UNITY_GROUP ${group})
  endforeach()
endfunction()
