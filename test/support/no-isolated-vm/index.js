'use strict';
// See package.json: this project's install leaves isolated-vm out.
throw new Error(
  "isolated-vm is left out of this project's install (package.json overrides it with test/support/no-isolated-vm): " +
    "it is needed only by n8n's vm expression engine, which the tests do not use.",
);
