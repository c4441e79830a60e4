# tiltd: build and install.
#
#   make                      release build (.build/release/tiltd and tiltd-run,
#                             `tiltd run` alone, which tiltd execs for `run`)
#   make install              binaries, man page, shell completions, udev rule,
#                             sysusers entry, systemd unit, D-Bus policy
#                             and activation file, docs
#   make man                  .build/man/tiltd.1, written by scripts/man-page.py from
#                             the commands' own help (tiltd --experimental-dump-help)
#   make completions          bash, zsh and fish completions in .build/completions,
#                             written by `tiltd --generate-completion-script SHELL`
#   make install PREFIX=/usr DESTDIR=/tmp/pkg
#   make uninstall            removes what install put in place
#   make test                 scripts/test.sh (set-up + the whole test suite)
#
# After installing on a live system (not with DESTDIR):
#   sudo systemd-sysusers && sudo udevadm control --reload && \
#   sudo udevadm trigger --subsystem-match=iio --subsystem-match=input && sudo usermod -aG tiltd $USER
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
DOCDIR ?= $(PREFIX)/share/doc/tiltd
MANDIR ?= $(PREFIX)/share/man
BASHCOMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPLETIONDIR ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPLETIONDIR ?= $(PREFIX)/share/fish/vendor_completions.d
DOCS = README.md docs/devices.md docs/knob.md docs/motion.md docs/streaming.md docs/trace-format.md \
       docs/dbus.md docs/controls.md docs/levels.md docs/performance.md
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

.PHONY: all build man completions install uninstall test

all: build

build:
	$(SWIFT) build -c release --product tiltd
	$(SWIFT) build -c release --product tiltd-run

# One page with every subcommand, from the commands' own help
# (`tiltd --experimental-dump-help`), by scripts/man-page.py rather than
# swift-argument-parser's generate-manual plugin, which drops every
# non-ASCII character ("1–1000" became "11000") and writes a generic
# EXIT STATUS without 64.
man: build
	python3 scripts/man-page.py --binary .build/release/tiltd --out .build/man/tiltd.1

completions: build
	mkdir -p .build/completions
	.build/release/tiltd --generate-completion-script bash > .build/completions/tiltd.bash
	.build/release/tiltd --generate-completion-script zsh > .build/completions/_tiltd
	.build/release/tiltd --generate-completion-script fish > .build/completions/tiltd.fish

install: build man completions
	install -Dm0755 .build/release/tiltd $(DESTDIR)$(BINDIR)/tiltd
	install -Dm0755 .build/release/tiltd-run $(DESTDIR)$(BINDIR)/tiltd-run
	install -Dm0644 .build/man/tiltd.1 $(DESTDIR)$(MANDIR)/man1/tiltd.1
	install -Dm0644 .build/completions/tiltd.bash $(DESTDIR)$(BASHCOMPLETIONDIR)/tiltd
	install -Dm0644 .build/completions/_tiltd $(DESTDIR)$(ZSHCOMPLETIONDIR)/_tiltd
	install -Dm0644 .build/completions/tiltd.fish $(DESTDIR)$(FISHCOMPLETIONDIR)/tiltd.fish
	install -Dm0644 udev/70-tiltd.rules $(DESTDIR)$(UDEVRULESDIR)/70-tiltd.rules
	install -Dm0644 udev/tiltd.sysusers $(DESTDIR)$(SYSUSERSDIR)/tiltd.conf
	install -d $(DESTDIR)$(UNITDIR)
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@DOCDIR@|$(DOCDIR)|g' udev/tiltd.service \
		> $(DESTDIR)$(UNITDIR)/tiltd.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/tiltd.service
	install -d $(DESTDIR)$(DOCDIR)
	install -m0644 $(DOCS) $(DESTDIR)$(DOCDIR)/
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
	rm -f $(addprefix $(DESTDIR)$(DOCDIR)/,$(notdir $(DOCS)))
	rm -f $(DESTDIR)$(DBUSPOLICYDIR)/net.tiltd.Tilt.conf
	rm -f $(DESTDIR)$(DBUSSERVICEDIR)/net.tiltd.Tilt.service
	-rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null

test:
	scripts/test.sh
