/** Rows of the worker's book-keeping tables as the tests read them (dates come back as text). */
export interface WatermarkRow {
  source_nm: string;
  last_no: number;
  upd_dtm: string;
}

export interface RunLogRow {
  run_no: number;
  kind: string;
  agrt_dt: string;
  agrt_hour: number | null;
  requested_by: string;
  job_id: string | null;
  started_dtm: string;
  finished_dtm: string | null;
  row_cnt: number | null;
  outcome: string;
  error_msg: string | null;
}

export interface BuiltDayRow {
  kind: string;
  agrt_dt: string;
  agrt_hour: number;
  built_max_no: number;
  row_cnt: number;
  built_dtm: string;
}
