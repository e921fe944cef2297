package sdk

// Version is the SDK's version; the wire protocol has its own number in sdk/plugin.
const Version = "0.1.0"
