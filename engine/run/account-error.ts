/** An account the project file names wrongly or not at all: the message names the setting. */
export class AccountError extends Error {}
