"""Tests of companion.box: release files, the updater, the Wi-Fi over a stand-in nmcli."""
