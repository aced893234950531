import { Input, Select } from 'antd';
import { statusLabel } from '../../shared/money';

/** Statuses as a Select's options, each labelled as its tag shows it. */
export function statusOptions(statuses: readonly string[]): { value: string; label: string }[] {
  return statuses.map((value) => ({ value, label: statusLabel(value) }));
}

export interface StatusFilter {
  value: string;
  onChange: (status: string) => void;
  /** The statuses to choose from, after 'All'. */
  statuses: readonly string[];
}

/** The toolbar above an admin list: a search box (searched on Enter or the button) and, for some lists, a status filter. */
export function ListToolbar({
  label,
  placeholder,
  width,
  onSearch,
  status,
}: {
  /** The search box's accessible name, e.g. 'Search members'. */
  label: string;
  placeholder: string;
  width: number;
  onSearch: (search: string) => void;
  status?: StatusFilter;
}) {
  return (
    <div className="admin-toolbar">
      <Input.Search aria-label={label} placeholder={placeholder} allowClear style={{ width }} onSearch={onSearch} />
      {status && <Select aria-label="Status filter" value={status.value} style={{ width: 160 }} onChange={status.onChange} options={[{ value: 'all', label: 'All' }, ...statusOptions(status.statuses)]} />}
    </div>
  );
}
