/** Most addresses one batch call takes (type and validate): 100 fit one eth_call with room to spare. */
export const MAX_BATCH_ADDRESSES = 100;
