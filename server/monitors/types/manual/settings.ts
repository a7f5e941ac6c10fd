// The manual type has nothing to configure: its state is what an operator or an API call sets.
import { Type } from "@sinclair/typebox";

export const manualSettings = Type.Object({});
