# Running a stage with Spin itself (included by the top Makefile):
#
#   make up STAGE=NN       `spin up` from stages/NN-name/ (its spin.toml), after building it
#   make deploy STAGE=NN   `spin aka deploy` from stages/NN-name/: the stage on Akamai Functions
#
# Spin is not something this repository installs (it comes from its project's
# installer, not from Debian or npm). Both targets look first, and stop before
# building or deploying anything, naming the command that fixes what is
# missing: Spin itself, then (deploy) its `aka` plugin, then (deploy) a login.
# The commands are the ones Akamai Functions' quickstart gives.
# SPIN=path picks another spin binary; DEPLOY_SKIP_BUILD=1 deploys what is built.

SPIN               ?= spin
# snippet: spin-setup
SPIN_INSTALL_HINT  := curl -fsSL https://developer.fermyon.com/downloads/fwf_install.sh | bash && sudo mv ./spin /usr/local/bin/spin
SPIN_PLUGIN_HINT   := spin plugin install aka
SPIN_LOGIN_HINT    := spin aka login
# end-snippet

.PHONY: up deploy spin-present spin-aka-ready

## internals: stop, printing the install command, unless Spin (SPIN=path) is installed
spin-present:
	@command -v $(SPIN) >/dev/null 2>&1 || { \
	  echo "spin: '$(SPIN)' is not installed. Install Spin, then run this again:"; \
	  echo "    $(SPIN_INSTALL_HINT)"; exit 2; }

## internals: stop, printing the command that fixes it, unless Spin's aka plugin is installed and logged in
spin-aka-ready: spin-present
	@$(SPIN) aka --version >/dev/null 2>&1 || { \
	  echo "spin: the Akamai Functions plugin (aka) is not installed. Install it, then run this again:"; \
	  echo "    $(SPIN_PLUGIN_HINT)"; exit 2; }
	@$(SPIN) aka info >/dev/null 2>&1 || { \
	  echo "spin: not logged in to Akamai Functions (spin aka info failed). Log in, then run this again:"; \
	  echo "    $(SPIN_LOGIN_HINT)"; exit 2; }

## everyday: [STAGE=NN]: build, then `spin up` from stages/NN-name/ (its spin.toml)
up: require-stage spin-present
	@$(MAKE) build-wasm
	cd $(STAGE_DIR) && $(SPIN) up

## everyday: [STAGE=NN] [DEPLOY_SKIP_BUILD=1]: build, then `spin aka deploy`: the stage on Akamai Functions
deploy: require-stage spin-aka-ready
	@$(if $(DEPLOY_SKIP_BUILD),,$(MAKE) build-wasm)
	cd $(STAGE_DIR) && $(SPIN) aka deploy
