# tiltd: build and install.
#
#   make                      release build (.build/release/tiltd)
#   make install              binary, udev rule, sysusers entry, systemd unit, D-Bus policy
#                             and activation file, docs
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

.PHONY: all build install uninstall test

all: build

build:
	$(SWIFT) build -c release --product tiltd

install: build
	install -Dm0755 .build/release/tiltd $(DESTDIR)$(BINDIR)/tiltd
	install -Dm0644 udev/70-tiltd.rules $(DESTDIR)$(UDEVRULESDIR)/70-tiltd.rules
	install -Dm0644 udev/tiltd.sysusers $(DESTDIR)$(SYSUSERSDIR)/tiltd.conf
	install -d $(DESTDIR)$(UNITDIR)
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@DOCDIR@|$(DOCDIR)|g' udev/tiltd.service \
		> $(DESTDIR)$(UNITDIR)/tiltd.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/tiltd.service
	install -Dm0644 docs/devices.md $(DESTDIR)$(DOCDIR)/devices.md
	install -Dm0644 dbus/net.tiltd.Tilt.conf $(DESTDIR)$(DBUSPOLICYDIR)/net.tiltd.Tilt.conf
	install -Dm0644 dbus/net.tiltd.Tilt.service $(DESTDIR)$(DBUSSERVICEDIR)/net.tiltd.Tilt.service
	install -Dm0644 docs/dbus.md $(DESTDIR)$(DOCDIR)/dbus.md

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/tiltd
	rm -f $(DESTDIR)$(UDEVRULESDIR)/70-tiltd.rules
	rm -f $(DESTDIR)$(SYSUSERSDIR)/tiltd.conf
	rm -f $(DESTDIR)$(UNITDIR)/tiltd.service
	rm -f $(DESTDIR)$(DOCDIR)/devices.md
	rm -f $(DESTDIR)$(DBUSPOLICYDIR)/net.tiltd.Tilt.conf
	rm -f $(DESTDIR)$(DBUSSERVICEDIR)/net.tiltd.Tilt.service
	rm -f $(DESTDIR)$(DOCDIR)/dbus.md
	-rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null

test:
	scripts/test.sh
