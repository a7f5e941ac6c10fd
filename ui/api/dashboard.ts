import type { Dashboard } from "../../server/dashboard/public";
import { api } from "./client";

export type { Dashboard };

export const getDashboard = () => api.get<Dashboard>("/api/dashboard");
