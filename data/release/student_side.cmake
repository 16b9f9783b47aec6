# Read by CMakeLists.txt and by the student edition's CMakeLists.txt (data/release/), so that
# both build the student target from the same list: data/release/student_side.txt.

# The student side's library sources (every .cpp under its `sources` folders) into
# `library_var`, and its main file into `main_var`, as absolute paths under `root`.
function(blockcheck_student_sources root library_var main_var)
  set(list ${root}/data/release/student_side.txt)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${list})
  file(STRINGS ${list} lines REGEX "^(sources|main) ")
  set(library "")
  set(main "")
  foreach(line ${lines})
    string(REGEX REPLACE "^([a-z]+) +(.+)$" "\\1;\\2" entry "${line}")
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

# Each file of the list into the unity group of its folder (checker_block, solutions_ch25, ...):
# with UNITY_BUILD_MODE GROUP, one translation unit a folder.
function(blockcheck_unity_by_folder root sources_var)
  foreach(source ${${sources_var}})
    get_filename_component(folder ${source} DIRECTORY)
    file(RELATIVE_PATH folder ${root} ${folder})
    string(REPLACE "/" "_" group ${folder})
    set_source_files_properties(${source} PROPERTIES UNITY_GROUP ${group})
  endforeach()
endfunction()
