# tiltd: build, install and package.
#
#   make                      release build with the Swift runtime linked in
#                             (--static-swift-stdlib): .build/release/tiltd and
#                             tiltd-run (`tiltd run` alone, which tiltd execs for
#                             `run`) need no Swift toolchain where they run
#   make install              binaries (stripped), man page, shell completions,
#                             udev rule, sysusers entry, systemd unit, D-Bus
#                             policy and activation file, docs with their
#                             images, the bundled recordings
#   make deb                  tiltd_VERSION_ARCH.deb (scripts/make-deb.sh;
#                             docs/packaging.md), VERSION as `tiltd --version`
#   make man                  .build/man/tiltd.1, written by scripts/man-page.py from
#                             the commands' own help (tiltd --experimental-dump-help)
#   make completions          bash, zsh and fish completions in .build/completions,
#                             written by `tiltd --generate-completion-script SHELL`
#   make install PREFIX=/usr DESTDIR=/tmp/pkg
#   make uninstall            removes what install put in place
#   make test                 scripts/test.sh (set-up + the whole test suite)
#   make SCRATCH=.build-release ...   build in another scratch folder
#
# Each step runs only when what it is made from changed (the sources, this
# Makefile, the binary), so `make && sudo make install` builds as the user
# and installs as root without running swift again.
#
# After installing on a live system (not with DESTDIR):
#   sudo systemd-sysusers && sudo udevadm control --reload && \
#   sudo udevadm trigger --subsystem-match=iio --subsystem-match=input && sudo usermod -aG tiltd $USER
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
DOCDIR ?= $(PREFIX)/share/doc/tiltd
MANDIR ?= $(PREFIX)/share/man
# The binaries look for the recordings in share/tiltd/recordings beside
# their own bin/ (Sources/Devices/Listing/BundledRecording.swift).
RECORDINGSDIR ?= $(PREFIX)/share/tiltd/recordings
BASHCOMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPLETIONDIR ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPLETIONDIR ?= $(PREFIX)/share/fish/vendor_completions.d
DOCS = $(wildcard docs/*.md)
IMAGES = $(wildcard docs/images/*.png)
RECORDINGS = $(wildcard recordings/*.trace) recordings/README.md recordings/LICENSE.txt
# udev, sysusers and units belong under /usr/lib (or /etc) even for /usr/local
# installs: udev and systemd do not look in /usr/local.
UDEVRULESDIR ?= /usr/lib/udev/rules.d
SYSUSERSDIR ?= /usr/lib/sysusers.d
UNITDIR ?= /usr/lib/systemd/system
# The system bus reads policies and activation files only under /usr/share
# (or /etc), even for /usr/local installs.
DBUSPOLICYDIR ?= /usr/share/dbus-1/system.d
DBUSSERVICEDIR ?= /usr/share/dbus-1/system-services
SWIFT ?= swift
STRIP ?= strip
SCRATCH ?= .build
RELEASE = $(SCRATCH)/release
SWIFTBUILD = $(SWIFT) build -c release --static-swift-stdlib --scratch-path $(SCRATCH)
SOURCES := Makefile Package.swift $(shell find Sources -type f)
BINARIES = $(RELEASE)/tiltd $(RELEASE)/tiltd-run
MANPAGE = $(SCRATCH)/man/tiltd.1
COMPLETIONS = $(SCRATCH)/completions/tiltd.bash $(SCRATCH)/completions/_tiltd $(SCRATCH)/completions/tiltd.fish

.PHONY: all build man completions install uninstall deb test

all: build

build: $(BINARIES)

# Both products in one swift build: with a --product each, a second run
# relinks what the first one did not name.
$(BINARIES) &: $(SOURCES)
	$(SWIFTBUILD)
	touch $(BINARIES)

# One page with every subcommand, from the commands' own help
# (`tiltd --experimental-dump-help`), by scripts/man-page.py rather than
# swift-argument-parser's generate-manual plugin, which drops every
# non-ASCII character ("1–1000" became "11000") and writes a generic
# EXIT STATUS without 64.
man: $(MANPAGE)

$(MANPAGE): $(RELEASE)/tiltd scripts/man-page.py Makefile
	python3 scripts/man-page.py --binary $(RELEASE)/tiltd --out $@

completions: $(COMPLETIONS)

$(COMPLETIONS) &: $(RELEASE)/tiltd Makefile
	mkdir -p $(SCRATCH)/completions
	$(RELEASE)/tiltd --generate-completion-script bash | sed '1{/^#!/d}' > $(SCRATCH)/completions/tiltd.bash
	$(RELEASE)/tiltd --generate-completion-script zsh > $(SCRATCH)/completions/_tiltd
	$(RELEASE)/tiltd --generate-completion-script fish > $(SCRATCH)/completions/tiltd.fish

# The binaries are stripped of their symbol tables and debug information
# (a crash then prints addresses, not function names: docs/packaging.md).
install: $(BINARIES) $(MANPAGE) $(COMPLETIONS)
	install -Dm0755 -s --strip-program=$(STRIP) $(RELEASE)/tiltd $(DESTDIR)$(BINDIR)/tiltd
	install -Dm0755 -s --strip-program=$(STRIP) $(RELEASE)/tiltd-run $(DESTDIR)$(BINDIR)/tiltd-run
	install -Dm0644 $(MANPAGE) $(DESTDIR)$(MANDIR)/man1/tiltd.1
	install -Dm0644 $(SCRATCH)/completions/tiltd.bash $(DESTDIR)$(BASHCOMPLETIONDIR)/tiltd
	install -Dm0644 $(SCRATCH)/completions/_tiltd $(DESTDIR)$(ZSHCOMPLETIONDIR)/_tiltd
	install -Dm0644 $(SCRATCH)/completions/tiltd.fish $(DESTDIR)$(FISHCOMPLETIONDIR)/tiltd.fish
	install -Dm0644 udev/70-tiltd.rules $(DESTDIR)$(UDEVRULESDIR)/70-tiltd.rules
	install -Dm0644 udev/tiltd.sysusers $(DESTDIR)$(SYSUSERSDIR)/tiltd.conf
	install -d $(DESTDIR)$(UNITDIR)
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@DOCDIR@|$(DOCDIR)|g' udev/tiltd.service \
		> $(DESTDIR)$(UNITDIR)/tiltd.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/tiltd.service
	install -d $(DESTDIR)$(DOCDIR)/docs/images
	install -m0644 README.md $(DESTDIR)$(DOCDIR)/
	install -m0644 $(DOCS) $(DESTDIR)$(DOCDIR)/docs/
	install -m0644 $(IMAGES) $(DESTDIR)$(DOCDIR)/docs/images/
	install -d $(DESTDIR)$(RECORDINGSDIR)
	install -m0644 $(RECORDINGS) $(DESTDIR)$(RECORDINGSDIR)/
	install -Dm0644 dbus/net.tiltd.Tilt.conf $(DESTDIR)$(DBUSPOLICYDIR)/net.tiltd.Tilt.conf
	install -Dm0644 dbus/net.tiltd.Tilt.service $(DESTDIR)$(DBUSSERVICEDIR)/net.tiltd.Tilt.service

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/tiltd $(DESTDIR)$(BINDIR)/tiltd-run
	rm -f $(DESTDIR)$(MANDIR)/man1/tiltd.1
	rm -f $(DESTDIR)$(BASHCOMPLETIONDIR)/tiltd $(DESTDIR)$(ZSHCOMPLETIONDIR)/_tiltd
	rm -f $(DESTDIR)$(FISHCOMPLETIONDIR)/tiltd.fish
	rm -f $(DESTDIR)$(UDEVRULESDIR)/70-tiltd.rules
	rm -f $(DESTDIR)$(SYSUSERSDIR)/tiltd.conf
	rm -f $(DESTDIR)$(UNITDIR)/tiltd.service
	rm -f $(DESTDIR)$(DOCDIR)/README.md
	rm -f $(addprefix $(DESTDIR)$(DOCDIR)/docs/,$(notdir $(DOCS)))
	rm -f $(addprefix $(DESTDIR)$(DOCDIR)/docs/images/,$(notdir $(IMAGES)))
	rm -f $(addprefix $(DESTDIR)$(RECORDINGSDIR)/,$(notdir $(RECORDINGS)))
	rm -f $(DESTDIR)$(DBUSPOLICYDIR)/net.tiltd.Tilt.conf
	rm -f $(DESTDIR)$(DBUSSERVICEDIR)/net.tiltd.Tilt.service
	-rmdir $(DESTDIR)$(DOCDIR)/docs/images $(DESTDIR)$(DOCDIR)/docs $(DESTDIR)$(DOCDIR) 2>/dev/null
	-rmdir $(DESTDIR)$(RECORDINGSDIR) $(dir $(DESTDIR)$(RECORDINGSDIR)) 2>/dev/null

# The package's files are what `make install` puts under /usr, staged in
# $(SCRATCH)/deb/debian/tiltd (where dpkg-shlibdeps expects a package's
# files); scripts/make-deb.sh adds the Debian parts.
deb: $(BINARIES) $(MANPAGE) $(COMPLETIONS)
	rm -rf $(SCRATCH)/deb
	$(MAKE) --no-print-directory install DESTDIR=$(CURDIR)/$(SCRATCH)/deb/debian/tiltd PREFIX=/usr \
		ZSHCOMPLETIONDIR=/usr/share/zsh/vendor-completions SCRATCH=$(SCRATCH)
	scripts/make-deb.sh $(SCRATCH)/deb .

test:
	scripts/test.sh
