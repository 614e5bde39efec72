# Install layout of Dozor: what `cmake --install` (and so the Debian package) puts where.
#
# Included from the top-level CMakeLists.txt, after every program target is defined:
#   include(${CMAKE_SOURCE_DIR}/packaging/install.cmake)
#
# Expects: CMAKE_SOURCE_DIR = the repository root; program targets named as in the
# lists below. A program that this tree does not define yet is skipped, so adding
# dozord or dozor-analyzer needs only its add_executable() (and systemd/NAME.service,
# packaging/man/man8/NAME.8 beside the others).
#
# Cache variables:
#   DOZOR_SYSTEMD_UNITDIR   where units go (default PREFIX/lib/systemd/system, which
#                           systemd reads for /usr and /usr/local; the Debian build
#                           passes /lib/systemd/system, bookworm's unit directory)
#   DOZOR_INSTALL_SYSCONF   install /etc/dozor/dozor.toml and the nginx site (ON)
#
# Target `dozor-dist` builds only what gets installed (the Debian build uses it
# with CMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON, so packaging does not compile the tests).
#
# Layout (docs/install.md):
#   PREFIX/sbin/{dozor-fcgi,dozord,dozor-analyzer}   daemons
#   PREFIX/bin/dozorctl                              admin CLI
#   PREFIX/share/dozor/{www,migrations,...}          static pages and data files
#   SYSCONFDIR/dozor/dozor.toml                      config (conffile in the package)
#   SYSCONFDIR/nginx/{sites-available/dozor,snippets/dozor-*.conf}   production site
#   DOZOR_SYSTEMD_UNITDIR/{NAME.service,NAME.socket}
include_guard(GLOBAL)
include(GNUInstallDirs)

set(DOZOR_SYSTEMD_UNITDIR "${CMAKE_INSTALL_PREFIX}/lib/systemd/system"
    CACHE PATH "Directory for Dozor's systemd units")
option(DOZOR_INSTALL_SYSCONF "Install /etc/dozor/dozor.toml and the nginx production site" ON)

set(_dozor_pkg "${CMAKE_SOURCE_DIR}/packaging")
set(_dozor_sbin_programs dozor-fcgi dozord dozor-analyzer)
set(_dozor_bin_programs dozorctl)

# Programs: daemons in sbin with their units and section-8 pages, the CLI in bin.
set(_dozor_installed_programs)
foreach(_prog IN LISTS _dozor_sbin_programs _dozor_bin_programs)
  if(NOT TARGET ${_prog})
    continue()
  endif()
  list(APPEND _dozor_installed_programs ${_prog})
  if(_prog IN_LIST _dozor_sbin_programs)
    install(TARGETS ${_prog} RUNTIME DESTINATION ${CMAKE_INSTALL_SBINDIR})
  else()
    install(TARGETS ${_prog} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
  foreach(_unit ${_prog}.service ${_prog}.socket)
    if(EXISTS "${CMAKE_SOURCE_DIR}/systemd/${_unit}")
      install(FILES "${CMAKE_SOURCE_DIR}/systemd/${_unit}" DESTINATION "${DOZOR_SYSTEMD_UNITDIR}")
    endif()
  endforeach()
  foreach(_section 1 8)
    if(EXISTS "${_dozor_pkg}/man/man${_section}/${_prog}.${_section}")
      install(FILES "${_dozor_pkg}/man/man${_section}/${_prog}.${_section}"
              DESTINATION "${CMAKE_INSTALL_MANDIR}/man${_section}")
    endif()
  endforeach()
endforeach()
add_custom_target(dozor-dist DEPENDS ${_dozor_installed_programs})

# Data files, read-only at run time. Add further data folders (fingerprints,
# scanner templates, ...) to this list as "SOURCE_DIR DESTINATION_NAME" pairs.
set(_dozor_data_dirs
    "www" "www"
    "db/migrations" "migrations"
    "share/passwords" "passwords"
    "share/analyzer" "analyzer"
    "share/audit" "audit"
    "share/scan" "scan")
while(_dozor_data_dirs)
  list(POP_FRONT _dozor_data_dirs _src _dest)
  if(EXISTS "${CMAKE_SOURCE_DIR}/${_src}")
    # Trailing slash: install the folder's contents as DATADIR/dozor/<dest>.
    install(DIRECTORY "${CMAKE_SOURCE_DIR}/${_src}/"
            DESTINATION "${CMAKE_INSTALL_DATADIR}/dozor/${_dest}"
            FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ
            DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
                                  GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  endif()
endwhile()

# The operator guide; the units' Documentation= points at it.
if(EXISTS "${CMAKE_SOURCE_DIR}/docs/install.md")
  install(FILES "${CMAKE_SOURCE_DIR}/docs/install.md" DESTINATION "${CMAKE_INSTALL_DOCDIR}")
endif()

if(DOZOR_INSTALL_SYSCONF)
  # The config holds no secrets (postinst generates them beside it), but it is
  # readable by root and the dozor group only, like everything in /etc/dozor.
  install(FILES "${_dozor_pkg}/dozor.toml"
          DESTINATION "${CMAKE_INSTALL_FULL_SYSCONFDIR}/dozor"
          PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ)

  # The production nginx site, rendered at build time by nginx/render (the same
  # templates as the development config), with this install's paths.
  if(EXISTS "${CMAKE_SOURCE_DIR}/nginx/render")
    find_program(DOZOR_PYTHON3 python3 REQUIRED)
    set(_site_out "${CMAKE_BINARY_DIR}/nginx-prod")
    set(_site_stamp "${_site_out}/.rendered")
    file(GLOB _site_templates CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/nginx/*.in"
         "${CMAKE_SOURCE_DIR}/nginx/snippets/*.in")
    add_custom_command(
      OUTPUT "${_site_stamp}"
      COMMAND "${CMAKE_COMMAND}" -E rm -rf "${_site_out}/etc"
      COMMAND "${DOZOR_PYTHON3}" "${CMAKE_SOURCE_DIR}/nginx/render" prod --out "${_site_out}"
              --www "${CMAKE_INSTALL_FULL_DATADIR}/dozor/www"
              --snippets-dir "${CMAKE_INSTALL_FULL_SYSCONFDIR}/nginx/snippets"
      COMMAND "${CMAKE_COMMAND}" -E touch "${_site_stamp}"
      DEPENDS "${CMAKE_SOURCE_DIR}/nginx/render" ${_site_templates}
      COMMENT "Rendering the production nginx site"
      VERBATIM)
    add_custom_target(dozor-nginx-site ALL DEPENDS "${_site_stamp}")
    add_dependencies(dozor-dist dozor-nginx-site)
    # render writes OUT/etc/nginx/{sites-available/dozor,snippets/dozor-*.conf}.
    install(DIRECTORY "${_site_out}/etc/nginx/" DESTINATION "${CMAKE_INSTALL_FULL_SYSCONFDIR}/nginx")
  endif()
endif()
